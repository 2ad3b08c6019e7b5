"""Design §1 and §5.7: each public service function is one transaction, except those §5.7 lists
by name, each with its reason. A new public function must be atomic or be listed there; a listed
name must exist and not be atomic (so the list stays true)."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "matches" / "services"


def _atomic(node: ast.FunctionDef) -> bool:
    return any(ast.unparse(d) in ("transaction.atomic", "transaction.atomic()") for d in node.decorator_list)


def _public_functions() -> dict[str, bool]:
    """`module.function` → whether it is decorated with `transaction.atomic`."""
    found = {}
    for path in sorted(SERVICES.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                found[f"{path.stem}.{node.name}"] = _atomic(node)
    return found


def _listed_exceptions() -> set[str]:
    design = (ROOT / "docs" / "design.md").read_text()
    section = design.split("### 5.7 Transactions", 1)[1].split("\n### ", 1)[0]
    return set(re.findall(r"`(\w+\.\w+)`", section))


def test_every_public_service_function_is_one_transaction_or_listed_as_not():
    functions, listed = _public_functions(), _listed_exceptions()
    assert functions and listed
    unlisted = sorted(name for name, atomic in functions.items() if not atomic and name not in listed)
    assert not unlisted, f"not atomic and not in design.md §5.7: {unlisted}"
    assert not sorted(listed - set(functions)), "design.md §5.7 names functions that do not exist"
    assert not sorted(name for name in listed if functions.get(name)), "design.md §5.7 lists atomic functions"


def test_the_check_sees_the_decorator():
    source = "@transaction.atomic\ndef a(): pass\n\ndef b(): pass\n"
    a, b = ast.parse(source).body
    assert _atomic(a) and not _atomic(b)
