"""Lists the pins of requirements*.txt that are behind PyPI: name, pinned version, newest release.

Asks pip itself (`pip index versions NAME`, one pin at a time) for each pin's newest release, so
the pin is compared, not whatever happens to be installed. Exits 0 either way: it informs."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*==\s*([^\s;#]+)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(paths: list[str]) -> dict[str, tuple[str, str]]:
    """canonical name → (name as written, pinned version)."""
    found = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if match := PIN.match(line):
                found[canonical(match[1])] = (match[1], match[2])
    return found


NEWEST = re.compile(r"^\S+ \(([^)]+)\)", re.MULTILINE)


def newest(name: str) -> str:
    """The newest release of `name` on the package index, as pip reports it (pre-releases aside)."""
    answer = subprocess.run([sys.executable, "-m", "pip", "index", "versions", name],
                            check=True, capture_output=True, text=True).stdout
    match = NEWEST.search(answer)
    if match is None:
        raise SystemExit(f"pip named no version of {name}: {answer!r}")
    return match[1]


def main(paths: list[str]) -> int:
    pinned = pins(paths)
    latest = {key: newest(name) for key, (name, _) in pinned.items()}
    behind = [(pinned[key], latest[key]) for key in pinned if latest[key] != pinned[key][1]]
    if not behind:
        print(f"all {len(pinned)} pins are at their newest release")
        return 0
    print(f"{'name':<28} {'pinned':<14} latest")
    for (name, version), latest in sorted(behind):
        print(f"{name:<28} {version:<14} {latest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["requirements.txt", "requirements-dev.txt"]))
