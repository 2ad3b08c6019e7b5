"""The one-way house (design §1): nothing imports upward and no module imports itself back.

games/ ← ai_workers/engines/ ← matches/ (models ← selectors ← services ← apis) ← ai_workers/tasks;
web/ (the pages) sits beside matches/apis: it writes through services and reads through selectors;
notifications/ depends on matches, never the reverse.
Checked on the source (module-level and local imports alike), so a new circle fails here."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "ai_workers", "matches", "pearlsite", "web", "notifications", "community")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Project modules `path` imports (relative imports resolved)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            if node.module or not node.level:   # `from . import x` imports x, not the package
                found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in PACKAGES}


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
             if "migrations" not in p.parts}
    return {name: {dep for dep in _imports(path) if dep in files and dep != name} for name, path in files.items()}


def _named(graph: dict[str, set[str]], *names: str) -> None:
    """Every module or package a check names exists: a rename must fail the check, not empty it."""
    missing = [n for n in names if not any(m == n or m.startswith(n + ".") for m in graph)]
    assert not missing, f"no such module: {missing}"


def _outside(graph: dict[str, set[str]], prefix: str, allowed: tuple[str, ...]) -> list[str]:
    _named(graph, prefix.rstrip("."), *(a.rstrip(".") for a in allowed))
    return sorted(f"{mod} imports {dep}" for mod, deps in graph.items() if mod.startswith(prefix)
                  for dep in deps if not dep.startswith(allowed))


def test_engines_import_only_games():
    assert not _outside(_graph(), "ai_workers.engines", ("games", "ai_workers.engines"))


def test_the_app_never_imports_the_worker_tasks():
    graph = _graph()
    _named(graph, "matches", "ai_workers", "ai_workers.engines", "ai_workers.tasks")
    offenders = sorted(f"{m} imports {d}" for m, deps in graph.items() if m.startswith("matches")
                       for d in deps if d.startswith("ai_workers") and not d.startswith("ai_workers.engines"))
    assert not offenders


def test_layers_point_down():
    graph = _graph()
    assert not _outside(graph, "matches.models", ("matches.models",))
    assert not _outside(graph, "matches.selectors", ("games", "ai_workers.engines", "matches.models",
                                                     "matches.selectors", "matches.errors", "matches.glicko",
                                                     "matches.rating_keys", "matches.pairing"))
    _named(graph, "matches.services", "matches.apis")
    for mod, deps in graph.items():
        if mod.startswith(("matches.services", "matches.selectors", "matches.models")):
            assert not any(d.startswith("matches.apis") for d in deps), mod


def test_rating_and_pairing_math_is_pure():
    """The rating systems, rating keys and tournament pairing are plain Python (no Django)."""
    pure = ("matches.glicko", "matches.weng_lin", "matches.rating_keys", "matches.pairing")
    graph = _graph()
    for mod in pure:
        assert mod in graph, f"no such module: {mod}"
        assert graph[mod] <= {m for m in pure} | {d for d in graph[mod] if d.startswith("games")}, mod
        source = (ROOT / (mod.replace(".", "/") + ".py")).read_text()
        assert "django" not in source and "rest_framework" not in source, mod


def test_a_check_naming_a_missing_module_fails():
    graph = _graph()
    with pytest.raises(AssertionError, match="no such module"):
        _outside(graph, "matches.no_such_module", ("games",))
    with pytest.raises(AssertionError, match="no such module"):
        _outside(graph, "matches.models", ("matches.models", "matches.renamed_away"))


def test_pages_use_the_services_and_selectors():
    graph = _graph()
    allowed = ("games", "ai_workers.engines", "matches.services", "matches.selectors", "matches.errors",
               "matches.glicko", "matches.rating_keys", "matches.live", "pearlsite.metrics", "web",
               "community.services", "community.selectors")
    assert not _outside(graph, "web", allowed + ("matches.models",)), "web imports outside its layer"
    _named(graph, "web.selectors", "web.views", "pearlsite")
    # Only web.selectors reads rows directly (the queries the API has no selector for yet).
    assert not [f"{m} imports {d}" for m, deps in graph.items() if m.startswith("web") and m != "web.selectors"
                for d in deps if d.startswith("matches.models")]
    assert not [m for m, deps in graph.items() if not m.startswith(("web", "pearlsite"))
                for d in deps if d.startswith("web")]


def test_no_import_circle():
    graph = _graph()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                cycles.append(path[path.index(dep):] + [dep] if dep in path else [node, dep])
            elif dep not in state:
                visit(dep, path + [dep])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    # A package importing its own submodules from __init__ is not a circle of logic.
    real = [c for c in cycles if not all(a.startswith(b + ".") or b.startswith(a + ".") for a, b in zip(c, c[1:]))]
    assert not real, real


def test_notifications_depend_on_matches_never_the_reverse():
    graph = _graph()
    assert not [f"{m} imports {d}" for m, deps in graph.items() if not m.startswith(("notifications", "pearlsite"))
                for d in deps if d.startswith("notifications")]
    assert not _outside(graph, "notifications", ("games", "matches.models", "matches.selectors", "matches.services",
                                                 "matches.errors", "matches.policies", "matches.apis.query",
                                                 "matches.apis.schema",
                                                 "pearlsite.metrics", "pearlsite.middleware", "notifications"))
    assert not _outside(graph, "notifications.models", ("notifications.models",))
    # Reads only: no service of either app (`from notifications import links` names the package too).
    assert [f for f in _outside(graph, "notifications.selectors", (
        "games", "matches.models", "matches.selectors", "matches.errors", "notifications.models",
        "notifications.selectors", "notifications.links")) if not f.endswith(" imports notifications")] == []


def test_community_depends_on_matches_never_the_reverse():
    """community/ (chat, blocks, reports, moderation) sits beside matches: matches reaches it only
    through the hooks it registers into matches.policies."""
    graph = _graph()
    assert not [f"{m} imports {d}" for m, deps in graph.items() if m.startswith(("matches", "games", "ai_workers"))
                for d in deps if d.startswith("community")]
    assert not _outside(graph, "community.models", ("community.models",))
    assert not _outside(graph, "community.selectors", ("community.models", "community.selectors", "matches.models",
                                                       "matches.errors", "matches.policies"))
    for mod, deps in graph.items():
        if mod.startswith(("community.services", "community.selectors", "community.models")):
            assert not any(d.startswith(("community.apis", "matches.apis")) for d in deps), mod
