"""`games/` is a pure library: standard library and itself only (design §1)."""
import ast
import sys
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


def _imported_roots(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.lineno, node.module.split(".")[0]


def test_games_imports_only_the_standard_library():
    offenders = [
        f"{path.relative_to(GAMES_DIR.parent)}:{line} imports {root}"
        for path in sorted(GAMES_DIR.rglob("*.py"))
        for line, root in _imported_roots(path)
        if root != "games" and root not in sys.stdlib_module_names
    ]
    assert not offenders, offenders


def test_games_uses_no_global_random_state():
    offenders = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name == "random" for a in node.names):
                offenders.append(f"{path.name}:{node.lineno} import random")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                names = {a.name for a in node.names}
                if names - {"Random"}:
                    offenders.append(f"{path.name}:{node.lineno} from random import {names}")
    assert not offenders, offenders
