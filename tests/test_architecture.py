"""The rules core stays pure: it imports only the standard library and itself."""

import ast
import sys
from pathlib import Path

CORE = Path(__file__).parents[1] / "scorepad" / "canasta"


def imported_roots(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.partition(".")[0])
    return names


def test_core_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in sorted(CORE.rglob("*.py")):
        outside = imported_roots(path.read_text()) - allowed
        assert not outside, f"{path.relative_to(CORE)} imports {sorted(outside)}"


def test_the_check_itself_catches_an_io_import():
    assert imported_roots("import flask\nfrom sqlite_utils import Database\n") == {"flask", "sqlite_utils"}
    assert not imported_roots("from .cards import Card\n")
