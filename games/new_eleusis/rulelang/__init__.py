"""The New Eleusis rule language (docs/rules/eleusis.md §2.1, §8, §9).

A rule is a Boolean expression judging the card `cur` against `prev`, `prev2` and the position `n`.

    syntax.py    vocabulary, text → AST (lexer, recursive descent), JSON AST → AST, printer
    compiler.py  type check, limits on n, staged closures; the reference evaluator
    tables.py    verdict tables: Rule (tabulated) and Guess (on demand) over one context generator

    rule = compile_rule("color(cur) != color(prev)")
    rule.canonical, rule.lookback, rule.report
    rule.accepts(cur, prev, prev2, n); rule.mask(prev, prev2, n)
    guess = parse_guess("suit(cur) != suit(prev)", lookback=1); guess.equivalent(rule)
"""
from .compiler import CaseMiss, check_expression, evaluate
from .syntax import FUNCTIONS, MAX_CHARS, MAX_NODES, RuleError, decode_ast, parse_ast, print_ast
from .tables import Guess, Rule, Verdicts, compile_rule, contexts, parse_guess

__all__ = ["CaseMiss", "FUNCTIONS", "Guess", "MAX_CHARS", "MAX_NODES", "Rule", "RuleError",
           "Verdicts", "check_expression", "compile_rule", "contexts", "decode_ast", "evaluate",
           "parse_ast", "parse_guess", "print_ast"]
