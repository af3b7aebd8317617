"""The import layers of `server/` and `protocol/`, held against docs/ARCHITECTURE.md.

Three rules, each a test:

- **No import circles** between modules, counting every import: at the top, inside
  `if TYPE_CHECKING:` and inside function bodies. A circle is two modules that cannot be
  understood, tested or replaced one without the other; a type-only circle is the same
  design problem, postponed.
- **The may-import table** of docs/ARCHITECTURE.md ("What may import what") is the law:
  each module belongs to the most specific row naming it (a module file over its package),
  and imports only its own row's modules, rows nested under its own, and the rows its
  "may import" column names. Rows whose I/O column says "no" import none of the I/O
  modules the document lists, and only rows that say "no" too. The table is parsed from
  the document, so the document and the test cannot disagree.
- **No module over 800 lines**: the packages' modules, and every other Python or JavaScript
  module the repository keeps (the client, the tests, the benchmarks, the deployment).

The imports are read from the source (`ast`); nothing of the project is imported.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "protocol")
DOC = ROOT / "docs" / "ARCHITECTURE.md"
TABLE_HEADING = "## What may import what"
MAX_LINES = 800


# --- the modules and their imports ---------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """One import statement's target, as a module of the project, and where it stands."""

    target: str
    path: Path
    line: int

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


@dataclass
class Module:
    name: str
    path: Path
    imports: list[Import] = field(default_factory=list)
    #: Top-level names of every import outside the project (for the I/O rule).
    outside: dict[str, int] = field(default_factory=dict)

    @property
    def rel(self) -> str:
        return self.path.relative_to(ROOT).as_posix()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_module(name: str, known: dict[str, Module]) -> str | None:
    """The project module an import of `name` runs: itself or its closest package."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def _read_modules() -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            modules[_module_name(path)] = Module(_module_name(path), path)
    for module in modules.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        is_package = module.path.name == "__init__.py"
        for node in ast.walk(tree):  # every import, wherever it stands
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.name.split(".")
                    base = base if is_package else base[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                # `from package import module` imports the module; the package's own
                # `__init__` counts only when a name is taken from it.
                subs = [f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in modules]
                targets = subs if len(subs) == len(node.names) else [*subs, source]
            else:
                continue
            for target in targets:
                found = _project_module(target, modules)
                if found is None:
                    top = target.partition(".")[0]
                    if top and top != "__future__":
                        module.outside.setdefault(top, node.lineno)
                elif found != module.name:
                    module.imports.append(Import(found, module.path, node.lineno))
    return modules


MODULES = _read_modules()


# --- the table of docs/ARCHITECTURE.md -----------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One row of the table: the paths it covers, the paths they may import, and whether
    they may do I/O."""

    paths: tuple[str, ...]
    may_import: tuple[str, ...]
    anything: bool
    io: bool


def _covers(path: str, rel: str) -> bool:
    """`path` (a folder ending in '/', or a file) covers the module file `rel`."""
    return rel.startswith(path) if path.endswith("/") else rel == path


def _parse_doc() -> tuple[list[Row], tuple[str, ...]]:
    text = DOC.read_text(encoding="utf-8")
    assert TABLE_HEADING in text, f"{DOC.name} has no section {TABLE_HEADING!r}"
    section = text.split(TABLE_HEADING, 1)[1].split("\n## ", 1)[0]
    io_line = next(
        (line for line in section.splitlines() if line.startswith("**I/O modules**")), None
    )
    assert io_line is not None, f"{TABLE_HEADING!r} names no **I/O modules**"
    io_modules = tuple(re.findall(r"`([\w.]+)`", io_line))
    rows: list[Row] = []
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip().lower() for cell in lines[0].strip("|").split("|")]
    assert header[:2] == ["package", "holds"] and "may import" in header[2], header
    assert header[3] == "i/o", header
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        paths = tuple(re.findall(r"`([^`]+)`", cells[0]))
        assert paths, f"a row of the table names no path: {line}"
        assert cells[3] in ("yes", "no"), f"I/O is 'yes' or 'no': {line}"
        rows.append(
            Row(
                paths=paths,
                may_import=tuple(re.findall(r"`([^`]+)`", cells[2])),
                anything=cells[2].startswith("anything"),
                io=cells[3] == "yes",
            )
        )
    return rows, io_modules


ROWS, IO_MODULES = _parse_doc()


def _row_of(rel: str) -> tuple[Row, str] | None:
    """The most specific row covering `rel`, and the path of it that does."""
    best: tuple[Row, str] | None = None
    for row in ROWS:
        for path in row.paths:
            if _covers(path, rel) and (best is None or len(path) > len(best[1])):
                best = (row, path)
    return best


def _allowed(source: tuple[Row, str], target_rel: str) -> bool:
    row, own = source
    target = _row_of(target_rel)
    if target is None:
        return True  # a module in no row: `test_every_module_has_a_row…` names it
    if row.anything or target[0] is row:
        return True
    # A row nested under the module's own (a module file of its package, say).
    if own.endswith("/") and any(p.startswith(own) for p in target[0].paths):
        return True
    return any(_covers(path, target_rel) for path in row.may_import)


# --- the tests -----------------------------------------------------------------------------


def _cycles() -> list[tuple[list[str], list[str]]]:
    """Each group of modules that import each other (through others, maybe), with one
    shortest circle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    edges = {name: {i.target for i in module.imports} for name, module in MODULES.items()}

    def visit(start: str) -> None:  # Tarjan's strongly connected components, iteratively
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)

    for name in sorted(edges):
        if name not in index:
            visit(name)
    circles = []
    for group in groups:
        start = min(group)
        # Breadth first from `start` back to it, inside the group: the shortest circle.
        came_from: dict[str, str] = {}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if start in edges[node]:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                circles.append((sorted(group), [*reversed(path), start]))
                break
            for child in sorted(edges[node] & group):
                if child not in came_from and child != start:
                    came_from[child] = node
                    queue.append(child)
    return circles


def test_the_import_graph_is_read() -> None:
    """Guards the reader itself: known imports of each kind are found."""
    node = {i.target for i in MODULES["server.cluster.node"].imports}
    assert "server.cluster.proxy" in node and "server.rooms.peers" in node
    limits = {i.target for i in MODULES["server.edge.limits"].imports}
    assert "server.ops.metrics" in limits  # under `if TYPE_CHECKING:`
    assert "asyncio" in MODULES["server.app"].outside


def test_no_import_circles() -> None:
    circles = _cycles()
    described = []
    for group, circle in circles:
        steps = []
        for source, target in pairwise(circle):
            where = next(i.where() for i in MODULES[source].imports if i.target == target)
            steps.append(f"    {source} -> {target}  ({where})")
        described.append(
            f"{' -> '.join(circle)}\n" + "\n".join(steps) + f"\n  (the group: {', '.join(group)})"
        )
    assert not circles, "import circles:\n" + "\n".join(described)


def test_every_module_has_a_row_and_every_row_a_module() -> None:
    homeless = [m.rel for m in MODULES.values() if _row_of(m.rel) is None]
    assert not homeless, f"in no row of the table in {DOC.name}: {homeless}"
    for row in ROWS:
        for path in (*row.paths, *row.may_import):
            assert (ROOT / path).exists(), f"{DOC.name} names {path}, which does not exist"


def test_imports_follow_the_table() -> None:
    wrong = []
    for module in MODULES.values():
        source = _row_of(module.rel)
        if source is None:
            continue  # in no row: `test_every_module_has_a_row…` names it
        for imported in module.imports:
            target_rel = MODULES[imported.target].rel
            if not _allowed(source, target_rel):
                wrong.append(
                    f"{imported.where()}: {module.rel} ({source[1]}) may not import {target_rel}"
                )
    assert not wrong, f"imports the table in {DOC.name} does not allow:\n" + "\n".join(wrong)


def test_pure_packages_do_no_io() -> None:
    wrong = []
    for module in MODULES.values():
        source = _row_of(module.rel)
        if source is None:
            continue  # in no row: `test_every_module_has_a_row…` names it
        if source[0].io:
            continue
        for name, line in module.outside.items():
            if name in IO_MODULES:
                wrong.append(f"{module.rel}:{line}: imports {name}")
        for imported in module.imports:
            target = _row_of(MODULES[imported.target].rel)
            if target is not None and target[0].io:
                wrong.append(f"{imported.where()}: imports {imported.target}, which does I/O")
    assert not wrong, "I/O in a package without it:\n" + "\n".join(wrong)


#: Where the repository keeps modules of its own besides the packages (third-party code,
#: such as the client's `node_modules`, is not ours to split).
OTHER_MODULE_DIRS = ("client_web", "tests", "bench", "deploy")
NOT_OURS = ("node_modules", ".venv", ".bundle")


def other_modules() -> list[str]:
    """Every Python and JavaScript module outside the packages, relative to the root."""
    found = []
    for top in OTHER_MODULE_DIRS:
        for pattern in ("*.py", "*.mjs", "*.js"):
            for path in (ROOT / top).rglob(pattern):
                if not any(part in NOT_OURS for part in path.parts):
                    found.append(str(path.relative_to(ROOT)))
    return sorted(found)


@pytest.mark.parametrize(
    "rel", [m.rel for m in sorted(MODULES.values(), key=lambda m: m.rel)] + other_modules()
)
def test_module_size(rel: str) -> None:
    lines = len((ROOT / rel).read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{rel} has {lines} lines (at most {MAX_LINES}): split it"
