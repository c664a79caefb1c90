"""The layout's promises, checked on the source: app/ imports in one direction (no circle),
only the entry point imports the Hall, and only the store knows which database is behind it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"


def _module(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each app module -> the app modules it imports, wherever the import statement stands
    (inside a function or an `if TYPE_CHECKING:` block too: a circle is a circle to a reader)."""
    modules = {_module(path): path for path in APP.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from app.table import chat` imports the module app.table.chat
                targets = [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}"
                           in modules else node.module for alias in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_checker_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_app_has_no_import_circle() -> None:
    assert cycles(import_graph()) == []


def test_only_the_entry_point_imports_the_hall() -> None:
    """The Hall builds the services and hands each what it needs; services see it only as an
    `app.context.Context`."""
    importers = {name for name, targets in import_graph().items() if "app.hall" in targets}
    assert importers == {"app.main"}


def test_only_the_store_knows_which_database() -> None:
    branch = re.compile(r"is_sqlite|cache is not None|cache is None|startswith\(\"sqlite")
    outside = [f"{path.relative_to(APP.parent)}:{number}"
               for path in APP.rglob("*.py") if "store" not in path.relative_to(APP).parts
               for number, line in enumerate(path.read_text().splitlines(), 1)
               if branch.search(line)]
    assert outside == []


def test_routes_write_no_sql() -> None:
    """Routes call services; services call the store. No statement text in app/api."""
    sql = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b")
    found = [f"{path.name}:{number}" for path in (APP / "api").glob("*.py")
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if sql.search(line)]
    assert found == []


def _imports(path: Path) -> set[str]:
    """Every module a file imports (absolute imports), wherever the statement stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


# What a route may not reach for: SQLAlchemy itself, the ORM's sessions and transactions, or a
# store's implementation (routes see the store only through a service).
_STORAGE_WORK = re.compile(r"^(sqlalchemy|asyncpg|app\.store\.(db|shared|sqlite|postgres))(\.|$)")


def test_routes_open_no_orm_session() -> None:
    """Routes parse, call one service and answer: a route module imports no SQLAlchemy and
    opens no session, so that every storage operation goes through a Store method."""
    found = sorted(f"{path.name}: {module}" for path in (APP / "api").glob("*.py")
                   for module in _imports(path) if _STORAGE_WORK.match(module))
    sessions = [f"{path.name}:{number}" for path in (APP / "api").glob("*.py")
                for number, line in enumerate(path.read_text().splitlines(), 1)
                if re.search(r"\bSessionDep\b|\.sessions\(\)|AsyncSession", line)]
    assert found == [] and sessions == []


# What only the store may reach for: SQLAlchemy, asyncpg, the ORM's engine, sessions and row
# classes (`app.store.db`, `app.store.models`) and the stores themselves. `app.store.base` (the
# protocols) is everyone's; the Hall opens the store (`app.store.choice`) and the entry point
# migrates the schema (`app.store.migrate`).
_DATABASE = re.compile(r"^(sqlalchemy|asyncpg"
                       r"|app\.store\.(?!base$|choice$|migrate$|hub$)\w+)(\.|$)")


def test_only_the_store_touches_the_database() -> None:
    """Services call `Store` methods, one line each: outside app/store no module imports
    SQLAlchemy, asyncpg or a store's implementation, nor opens an ORM session or a pool's
    connection, so that the seam stays the seam."""
    outside = [path for path in APP.rglob("*.py") if "store" not in path.relative_to(APP).parts]
    found = sorted(f"{path.relative_to(APP.parent)}: {module}" for path in outside
                   for module in _imports(path) if _DATABASE.match(module))
    sessions = [f"{path.relative_to(APP.parent)}:{number}" for path in outside
                for number, line in enumerate(path.read_text().splitlines(), 1)
                if re.search(r"\.sessions\b|AsyncSession|\.reader\.|\.engine\.|\.pool\.", line)]
    assert found == [] and sessions == []


def test_the_database_check_can_fail() -> None:
    assert _DATABASE.match("sqlalchemy.ext.asyncio") and _DATABASE.match("asyncpg")
    assert _DATABASE.match("app.store.db") and _DATABASE.match("app.store.postgres.roomcache")
    assert _DATABASE.match("app.store.models") and not _DATABASE.match("app.store.base")


def _is_protocol(node: ast.ClassDef) -> bool:
    return any((isinstance(base, ast.Name) and base.id == "Protocol")
               or (isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name)
                   and base.value.id == "Protocol") for base in node.bases)


def protocol_sizes(source: str) -> dict[str, int]:
    """Each Protocol class in the source -> the methods it declares. A protocol that only joins
    others (`class Store(RoomStore, MoveStore, ..., Protocol)`) declares none of its own."""
    return {node.name: sum(isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                           for item in node.body)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ClassDef) and _is_protocol(node)}


def test_the_size_check_can_fail() -> None:
    methods = "".join(f"    def m{n}(self) -> None: ...\n" for n in range(21))
    source = f"from typing import Protocol\nclass Wide(Protocol):\n{methods}"
    assert protocol_sizes(source) == {"Wide": 21}
    assert protocol_sizes("class Joined(A, B, Protocol):\n    x: int\n") == {"Joined": 0}


def test_every_protocol_is_a_narrow_door() -> None:
    """A consumer depends on the storage it uses: no Protocol in app/ declares more than 20
    methods (the store's doors are split by capability, app/store/base.py)."""
    wide = {f"{path.relative_to(APP.parent)}:{name}": size for path in APP.rglob("*.py")
            for name, size in protocol_sizes(path.read_text()).items() if size > 20}
    assert wide == {}


# The packages above the store: services, routes and the capability packages. The store (and
# app/core, the plain rules both sides share) imports none of them.
_ABOVE_THE_STORE = ("app.table", "app.play", "app.api", "app.admin", "app.people", "app.notify",
                    "app.social", "app.learn", "app.ops", "app.takeback")


def upward_imports(graph: dict[str, set[str]], below: tuple[str, ...]) -> list[str]:
    """The imports from a module in `below` (a package and its modules) up into one above."""
    def within(module: str, packages: tuple[str, ...]) -> bool:
        return any(module == p or module.startswith(p + ".") for p in packages)
    return sorted(f"{name} -> {target}" for name, targets in graph.items() if within(name, below)
                  for target in targets if within(target, _ABOVE_THE_STORE))


def test_the_direction_check_can_fail() -> None:
    graph = {"app.store.orm": {"app.table.lobby", "app.core.rooms"}, "app.table.lobby": set(),
             "app.core.rooms": set(), "app.tablet": set()}
    assert upward_imports(graph, ("app.store",)) == ["app.store.orm -> app.table.lobby"]
    assert upward_imports({"app.storey": {"app.table"}}, ("app.store",)) == []


def test_the_store_imports_nothing_above_it() -> None:
    """One direction: app/store and app/core import nothing from the services, the routes or the
    capability packages; what the store needs of the table's rules lives in app/core."""
    assert upward_imports(import_graph(), ("app.store", "app.core")) == []


def store_reach(graph: dict[str, set[str]]) -> list[str]:
    """What app/core takes from app/store: nothing, not even the row types, so the rules stay
    plain and the store is the only floor that knows its rows."""
    return sorted(f"{name} -> {target}" for name, targets in graph.items()
                  if name.startswith("app.core.") for target in targets
                  if target == "app.store" or target.startswith("app.store."))


def test_core_takes_nothing_from_the_store() -> None:
    assert store_reach({"app.core.rooms": {"app.store.orm", "app.store.models", "app.storey"}}) \
        == ["app.core.rooms -> app.store.models", "app.core.rooms -> app.store.orm"]
    assert store_reach(import_graph()) == []


def row_classes() -> set[str]:
    """The classes app/store/models.py declares: `Base` and every table's row."""
    tree = ast.parse((APP / "store" / "models.py").read_text())
    return {node.name for node in tree.body if isinstance(node, ast.ClassDef)}


def row_imports(source: str, rows: set[str]) -> list[str]:
    """What a module takes of the store's rows: the module `app.store.models` itself (its row
    classes, `Base`, anything in it), or a row class by name from any `app.store` module (a
    re-export is the same door)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names
                      if alias.name.split(".")[:3] == ["app", "store", "models"]]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                (node.module == "app.store" or node.module.startswith("app.store.")):
            found += [f"{node.module}.{alias.name}" for alias in node.names
                      if node.module == "app.store.models" or alias.name in rows
                      or (node.module == "app.store" and alias.name == "models")]
    return found


def test_the_row_check_can_fail() -> None:
    rows = {"Base", "Room"}
    assert row_imports("from app.store.models import utcnow\n", rows) == \
        ["app.store.models.utcnow"]
    assert row_imports("from app.store.base import ReplayRead, Room\n", rows) == \
        ["app.store.base.Room"]
    assert row_imports("import app.store.models\nfrom app.store import models\n", rows) == \
        ["app.store.models", "app.store.models"]
    assert row_imports("from app.store.base import ReplayRead\nfrom app.core.views import "
                       "StoredRoom\nfrom games import Room\n", rows) == []


def test_only_the_store_names_its_rows() -> None:
    """The domain works on plain types and the views of `app/core/views.py`, never on the ORM's
    classes: outside app/store no module imports `app.store.models` (the rows, `Base`) nor a row
    class from another store module. What a service makes or changes, a store method makes or
    changes (`PlayerStore.add_player`, `PeopleStore.add_passkey`); the rows the store hands up
    satisfy the views as they are, so nothing is copied on the way."""
    rows = row_classes()
    assert {"Base", "Player", "Room", "Seat", "MoveRow", "Outbox"} <= rows
    found = sorted(f"{path.relative_to(APP.parent)}: {what}" for path in APP.rglob("*.py")
                   if "store" not in path.relative_to(APP).parts
                   for what in row_imports(path.read_text(), rows))
    assert found == []
