"""The layers stay layers: a pure core, a store that knows rows only, formats that know no Flask."""

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).parents[1] / "scorepad" / "canasta"
# Club night's pure parts sit beside the core: the standard library and the core, nothing else.
CLUB_CORE = CORE.parent / "club" / "core"
SCOREPAD = CORE.parent
# A package whose parts sit in different layers (the club's pure core, its export reader and its
# pages): each part takes its own place in LAYERS, as ``club.core``.
SPLIT = {"club"}


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


def outside_imports(source: str) -> set[str]:
    """Relative imports from ``club/core/`` that reach past its own package to anything but the core (``...store``)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level > 1:
            module = node.module or ""
            if node.level != 3 or module.partition(".")[0] != "canasta":
                names.add("." * node.level + module)
    return names


def test_club_night_imports_only_the_standard_library_and_the_core():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    paths = sorted(CLUB_CORE.rglob("*.py"))
    assert {path.name for path in paths} >= {"settings.py", "movements.py", "rounds.py", "standings.py", "season.py"}
    for path in paths:
        source = path.read_text()
        outside = (imported_roots(source) - allowed) | outside_imports(source)
        assert not outside, f"club/core/{path.relative_to(CLUB_CORE)} imports {sorted(outside)}"


def test_importing_the_club_core_brings_nothing_else_of_the_club():
    # Importing club.core runs club/__init__.py first: it must import nothing (no pages, no Flask).
    assert not [node for node in ast.parse((SCOREPAD / "club" / "__init__.py").read_text()).body
                if isinstance(node, (ast.Import, ast.ImportFrom))]  # fmt: skip


def test_the_club_night_check_catches_a_reach_outside():
    reaching = "from ...store import load\nfrom ... import db\nfrom ..web import bp\nfrom ....x import y\n"
    assert outside_imports(reaching) == {"...store", "...", "..web", "....x"}
    inside = "from ...canasta import Violation\nfrom ...canasta.text import t\nfrom .rounds import x\n"
    assert not outside_imports(inside)


def test_the_check_itself_catches_an_io_import():
    assert imported_roots("import flask\nfrom sqlite_utils import Database\n") == {"flask", "sqlite_utils"}
    assert not imported_roots("from .cards import Card\n")


# --- the layers around the core say what they are ---------------------------------------------


def top_level_names(path: Path) -> set[str]:
    """The functions and classes a module defines at its top level."""
    tree = ast.parse(path.read_text())
    return {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}


def test_the_pages_do_not_reuse_the_formats_names():
    # exports.py (the pages) calls formats.match_csv; a view also called match_csv reads as the same thing.
    formats = set().union(*(top_level_names(path) for path in module_files("formats")))
    shared = top_level_names(SCOREPAD / "exports.py") & formats
    assert not shared, f"exports.py defines names formats/ already has: {sorted(shared)}"


def scorepad_modules(source: str, package: tuple[str, ...] = ()) -> set[str]:
    """The scorepad modules a module in ``package`` (``()`` for ``scorepad/``, ``("store",)`` for
    ``store/``) imports, relative imports resolved: ``from . import a`` and ``from .b import c`` in
    ``scorepad/``, ``from .. import a`` a folder below. A part of a split package is named with its
    package (``club.core``); its own package's modules are named as the package itself.
    """
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and 0 < node.level <= len(package) + 1:
            base = list(package[: len(package) - node.level + 1])
            targets = [[*base, *node.module.split(".")]] if node.module else [[*base, a.name] for a in node.names]
            names |= {".".join(parts[:2]) if parts[0] in SPLIT else parts[0] for parts in targets}
    return names


def module_files(name: str) -> list[Path]:
    """A module's file, or every file of a package (``store/``, ``formats/``, ``club/core/``)."""
    package = SCOREPAD.joinpath(*name.split("."))
    return sorted(package.rglob("*.py")) if package.is_dir() else [package.with_suffix(".py")]


def scorepad_module_names() -> set[str]:
    """Every module directly under ``scorepad/``: its files, its packages, and ``__init__`` (the app factory);
    for a split package, each of its parts (``club.core``, ``club.web``) instead of the package."""
    files = {path.stem for path in SCOREPAD.glob("*.py")}
    packages = {path.name for path in SCOREPAD.iterdir() if (path / "__init__.py").is_file()}
    parts = {
        f"{split}.{path.stem}"
        for split in SPLIT & packages
        for path in (SCOREPAD / split).iterdir()
        if path.stem != "__init__" and (path.suffix == ".py" or (path / "__init__.py").is_file())
    }
    return files | (packages - SPLIT) | parts


def module_imports(name: str) -> tuple[set[str], set[str]]:
    """What a module (or every file of a package) imports: (top-level packages, scorepad modules).

    A name imported from the package itself (``from . import create_app``) is ``__init__``.
    """
    roots, modules = set(), set()
    known = scorepad_module_names()
    for path in module_files(name):
        source = path.read_text()
        roots |= imported_roots(source)
        found = scorepad_modules(source, path.relative_to(SCOREPAD).parts[:-1])
        modules |= {found_name if found_name in known else "__init__" for found_name in found}
    return roots, modules - {name}


WEB = {"flask", "flask_wtf", "wtforms", "jinja2", "markupsafe", "werkzeug"}
DATABASE = {"sqlite_utils", "sqlite3"}
# Every module under scorepad/ by layer: a module imports only modules of lower layers, so the
# imports run one way and no cycle can form. A new module takes its place here (a test says so).
LAYERS = {
    # The rules core: the standard library only (test_core_imports_only_the_standard_library).
    "canasta": 0,
    # The records a match is told by (its sides, its info, its kept figures): the core at most.
    "records": 0.5,
    # Leaves: the core at most. Club night's pure parts, the schema, the server lock, static
    # assets, the htmx header check, the JSON document and a request's caps.
    "club.core": 1,
    "migrations": 1,
    "lock": 1,
    "assets": 1,
    "htmx": 1,
    "documents": 1,
    # A club night's JSON export read back: pure, over the document of a match.
    "club.reading": 2,
    "limits": 1,
    "fragments": 1,
    # A stored side name read back as its preset's message (the shipped catalogues, no Flask).
    "presetnames": 1,
    # The page's language over the assets and the markup cache; the form token, worded in it.
    "i18n": 2,
    "security": 3,
    # A page's or a poll's answer decided from one version (204, 304), in the page's language.
    "conditional": 3,
    # Storage (rows) and file formats (documents): neither knows the other.
    "store": 3,
    "formats": 3,
    # The checker's board: the taps' state machine over the core; the checker's pages word it.
    "board": 2,
    # What joins them: the request's connection, backups in and out, the forms, stale writes worded.
    "db": 4,
    "backups": 4,
    "forms": 4,
    "meanwhile": 4,
    # Who sees what, from the browser's cookie.
    "access": 5,
    # The sheet's and the list's figures and their kept pieces of markup, for the pages.
    "sheets": 5,
    # The blueprints and the poll shortcut: nothing imports them but the app factory.
    "api": 6,
    "checker": 6,
    "exports": 6,
    "matches": 6,
    "club.web": 6,
    "organiser": 6,
    "polls": 6,
    # The app factory, then the command line that starts it.
    "__init__": 7,
    "cli": 8,
}
# What a module must not import even from below: the store knows no web, formats and documents
# know no database (they are pure functions over the core's objects), backups know no web.
NOT_OUTSIDE = {
    "store": WEB,
    "formats": WEB | DATABASE,
    "board": WEB | DATABASE,
    "documents": WEB | DATABASE,
    "club.reading": WEB | DATABASE,
    "records": WEB | DATABASE,
    "presetnames": WEB | DATABASE,
    "limits": WEB | DATABASE,
    "meanwhile": WEB | DATABASE,
    "backups": WEB,
    "migrations": WEB,
    "lock": WEB | DATABASE,
}


def test_every_module_has_a_layer():
    modules = scorepad_module_names()
    assert not modules - set(LAYERS), f"place these modules in LAYERS: {sorted(modules - set(LAYERS))}"
    assert not set(LAYERS) - modules, f"LAYERS lists modules that are gone: {sorted(set(LAYERS) - modules)}"


@pytest.mark.parametrize("module", sorted(LAYERS))
def test_imports_run_one_way(module):
    roots, modules = module_imports(module)
    above = {name for name in modules if LAYERS.get(name, len(LAYERS)) >= LAYERS[module]}
    assert not above, f"{module} (layer {LAYERS[module]}) imports {sorted(above)} from its own layer or above"
    assert not roots & NOT_OUTSIDE.get(module, set()), f"{module} imports {sorted(roots & NOT_OUTSIDE[module])}"


def test_the_store_writes_no_document():
    # The store reads and writes rows and figures; a backup's documents are written above it (backups.py).
    _, modules = module_imports("store")
    assert not modules & {"documents", "formats"}, f"store imports {sorted(modules & {'documents', 'formats'})}"


def test_the_layer_check_reads_packages_and_the_app_factory(monkeypatch, tmp_path):
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "__init__.py").write_text("from .rows import now\n")
    (tmp_path / "store" / "rows.py").write_text("from .. import access\nfrom ..documents import Side\n")
    (tmp_path / "access.py").write_text("from . import store\nfrom .store import now\nfrom . import create_app\n")
    (tmp_path / "documents.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "SCOREPAD", tmp_path)
    assert scorepad_module_names() == {"store", "access", "documents"}
    assert module_imports("store") == (set(), {"access", "documents"})
    assert module_imports("access")[1] == {"store", "__init__"}


def test_the_layer_check_reads_relative_imports():
    source = "from . import canasta, formats\nfrom .documents import MatchInfo\nfrom .canasta.match import play_hand\n"
    assert scorepad_modules(source) == {"canasta", "formats", "documents"}
    inside = "from .. import canasta\nfrom ..documents import Side\nfrom .rows import now\n"
    assert scorepad_modules(inside, ("store",)) == {"canasta", "documents", "store"}
    pages = "from ..reading import read_night\nfrom ..core import EventSettings\nfrom ...store import club\n"
    assert scorepad_modules(pages, ("club", "web")) == {"club.reading", "club.core", "store"}


def test_every_blueprint_is_registered_by_name(tmp_path):
    from scorepad import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "t"})
    assert set(app.blueprints) == {"matches", "checker", "exports", "organiser", "nights", "i18n"}
    # The JSON API is an app of its own beside the pages (api.Dispatcher): it answers under /api/v1/.
    assert app.test_client().get("/api/v1/variants").status_code == 200
    # No importlib loop that skips a missing module in silence: a page that fails to import stops the app.
    assert "importlib" not in (SCOREPAD / "__init__.py").read_text()


def test_the_default_variant_is_named_once():
    # canasta.DEFAULT_VARIANT, in presets.py, is the only place that says which preset is the default.
    spelt = []
    for path in sorted(SCOREPAD.rglob("*.py")):
        if path.name == "presets.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value == "classic":
                spelt.append(f"{path.relative_to(SCOREPAD)}:{node.lineno}")
    assert not spelt, f"use canasta.DEFAULT_VARIANT instead of 'classic' at {spelt}"


def test_scripts_load_only_from_base_html():
    # A <script> inside a partial runs again on every htmx swap that brings the partial; the
    # pages' scripts are static files loaded once, from base.html's head (its kept end, _head.html,
    # which nothing but base.html draws).
    templates = SCOREPAD.parent / "templates"
    tagged = [str(path.relative_to(templates)) for path in templates.rglob("*.html") if "<script" in path.read_text()]
    assert tagged == ["_head.html"]
    drawing = [path.name for path in templates.rglob("*.html") if "page_head()" in path.read_text()]
    assert drawing == ["base.html"]


# --- no import cycle at any scale: between the files of every package too ------------------------
def module_name(path: Path, root: Path) -> str:
    """``canasta.entries.entry`` for ``canasta/entries/entry.py``; a package is its ``__init__``."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Which modules under ``root`` each one imports, relative imports resolved, wherever the import stands."""
    files = {module_name(path, root): path for path in root.rglob("*.py")}

    def resolve(parts: list[str]) -> str:
        """The module that defines ``parts``: itself, or the nearest package or module above it."""
        while parts and ".".join(parts) not in files:
            parts = parts[:-1]
        return ".".join(parts)

    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                base = package[: len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
                graph[name] |= {resolve([*base, alias.name]) for alias in node.names} - {name, ""}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle found by a depth-first walk, each as the modules around it."""
    found, state = [], {}
    for start in sorted(graph):
        stack = [(start, iter(sorted(graph[start])))]
        state[start] = "open"
        path = [start]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = "done"
                stack.pop()
                path.pop()
            elif state.get(child) == "open":
                found.append(path[path.index(child) :] + [child])
            elif child not in state:
                state[child] = "open"
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)
    return found


def test_no_module_imports_itself_round_a_cycle():
    # A cycle inside a package is as hard to follow as one between layers: the one cut by an
    # import inside a function (entries/entry.py and reading.py) hid from the layer test above.
    found = cycles(import_graph(SCOREPAD))
    assert not found, "import cycles: " + "; ".join(" -> ".join(cycle) for cycle in found)


def test_the_cycle_check_finds_one_cut_inside_a_function(tmp_path):
    (tmp_path / "entries").mkdir()
    (tmp_path / "entries" / "__init__.py").write_text("from .entry import Entry\nfrom .reading import read\n")
    cut_inside = "class Entry:\n    def read(self):\n        from .reading import read\n"
    (tmp_path / "entries" / "entry.py").write_text(cut_inside)
    (tmp_path / "entries" / "reading.py").write_text("from .entry import Entry\nfrom .. import cards\n")
    (tmp_path / "cards.py").write_text("")
    graph = import_graph(tmp_path)
    assert graph["entries.reading"] == {"entries.entry", "cards"}
    assert cycles(graph) == [["entries.entry", "entries.reading", "entries.entry"]]


# --- inside a package: its modules in an order, each importing only those listed before it ----------
# Lowest first. A package inside a package (canasta.entries) takes one place in its parent's list
# and has a list of its own. A new module takes its place here (a test says so).
PACKAGES = {
    # Words and problems first, then the cards and the rules' pieces, the rules (Variant), a hand's
    # entries, its score, a match, the presets, and the checker's questions about plays.
    "canasta": (
        "text", "violations", "cards", "kinds", "options", "variants", "entries", "scoring", "match", "presets",
        "plays",
    ),
    "canasta.entries": ("entry", "table", "checks"),
    "canasta.plays": (
        "verdict", "wording", "position", "melds", "search", "checks", "initial", "placing", "special", "meld",
        "impossible", "discard", "going_out", "pickup", "judge",
    ),
    # Rows and transactions, who sees what, the derived figures, matches as pages read them, the
    # organiser's sums, the export's documents, writes, imports, club nights.
    "store": ("rows", "access", "figures", "reads", "stats", "exported", "writes", "imports", "club"),
    # The club night: its pure core, the reader of its imports, its pages.
    "club": ("core", "reading", "web"),
    # The core: the settings first; scoring a round and seating read them; the standings sum the
    # rounds; the season ranks the standings.
    "club.core": ("settings", "rounds", "movements", "standings", "season"),
    # The pages: the night as loaded and the blueprint, the log's words, then one module per
    # concern, the organiser's last.
    "club.web": ("night", "log", "tables", "printing", "watching", "transfer", "running"),
}  # fmt: skip


def package_imports(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (by its name in the package) and the other modules of it that it imports.

    A module deeper down counts as the module or package that holds it in ``package``; what the
    package's ``__init__`` imports is not counted (it gathers its modules for its callers).
    """
    prefix = package + "."

    def place(name: str) -> str:
        return name[len(prefix) :].partition(".")[0]

    found: dict[str, set[str]] = {}
    for name, imported in graph.items():
        if name.startswith(prefix):
            inside = {
                place(other) if other.startswith(prefix) else "__init__"
                for other in imported
                if other == package or other.startswith(prefix)
            }
            found.setdefault(place(name), set()).update(inside - {place(name)})
    return found


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_a_packages_modules_import_one_way(package):
    graph = import_graph(SCOREPAD)
    imports = package_imports(graph, package)
    order = PACKAGES[package]
    assert set(imports) == set(order), f"list {package}'s modules in PACKAGES: {sorted(set(imports) ^ set(order))}"
    for module in order:
        above = {name for name in imports[module] if name == "__init__" or order.index(name) >= order.index(module)}
        assert not above, f"{package}.{module} imports {sorted(above)} from its own place in {package} or above"


def test_the_package_check_reads_nested_modules_and_the_package_itself():
    graph = {
        "store": {"store.rows", "store.reads"},
        "store.rows": set(),
        "store.reads": {"store.rows", "canasta"},
        "store.deep.a": {"store.deep.b", "store.rows"},
        "store.deep.b": {"store"},
        "canasta": set(),
    }
    assert package_imports(graph, "store") == {"rows": set(), "reads": {"rows"}, "deep": {"rows", "__init__"}}
