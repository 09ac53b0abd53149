"""The house's layers, read from the imports: no package or module of the harness imports one that imports
it back (directly or around a loop), the reports import only their model's values, and the command line is
the top."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

HARNESS = Path(__file__).resolve().parent.parent / "harness"

#: What harness/report/ may import besides itself: the values its model is made of (the records, their
#: statuses, engine names, the changes a comparison found, a timeline scan's rows).
REPORT_MAY_IMPORT = {"changes", "engine_name", "outcome", "results", "timeline_model"}


def _nodes(path: Path) -> Iterator[ast.AST]:
    """Every node of ``path``, those under ``if TYPE_CHECKING:`` too: an import for type hints alone loads
    nothing when the harness runs, but a reader follows it all the same, so a loop through one is a loop."""
    return ast.walk(ast.parse(path.read_text(encoding="utf-8")))


def _imports(path: Path) -> Iterator[str]:
    """Every harness module ``path`` imports (``harness.x.y``), at the top or inside a function."""
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("harness."))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "harness":  # from harness import grid, results
                yield from (f"harness.{a.name}" for a in node.names)
            elif node.module.startswith("harness."):
                yield node.module


def _room(module: str) -> str:
    """The top-level module or package of the harness that ``module`` belongs to: harness.report.html -> report."""
    return module.split(".")[1]


def _graph() -> dict[str, set[str]]:
    """Room -> the rooms it imports; a room is a top-level module or package of the harness."""
    rooms = {p.stem if p.is_file() else p.name for p in HARNESS.iterdir() if p.suffix == ".py" or p.is_dir()}
    graph: dict[str, set[str]] = {}
    for path in HARNESS.rglob("*.py"):
        room = path.relative_to(HARNESS).parts[0].removesuffix(".py")
        if room == "__init__":  # the public API hands names on; it is above everything by design
            continue
        targets = {_room(m) for m in _imports(path)} & rooms
        graph.setdefault(room, set()).update(targets - {room})
    return graph


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two rooms or more (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                loops.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return loops


def test_no_loop_between_the_packages_and_modules_of_the_harness() -> None:
    graph = _graph()
    assert {"report", "reporting", "compare", "cli", "commands", "refengine"} <= set(graph), "the rooms were read"
    assert _loops(graph) == []


def _module_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (``from harness.engines import cache`` is an import of the module
    harness.engines.cache, not of the package's __init__)."""
    modules = {
        ".".join(p.relative_to(HARNESS.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in HARNESS.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = graph.setdefault(name, set())
        for node in _nodes(path):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names} & set(modules)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
                for a in node.names:
                    targets.add(f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module)
        targets.discard(name)
    return graph


def test_no_loop_between_the_modules_of_the_harness() -> None:
    graph = _module_graph()
    assert {"harness.engines.install", "harness.engines.registry", "harness.report.html"} <= set(graph)
    assert _loops(graph) == []


def test_the_loop_finder_finds_a_loop() -> None:
    assert _loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_reports_import_only_their_model_and_its_values() -> None:
    outside = {
        f"{path.name}: {module}"
        for path in (HARNESS / "report").glob("*.py")
        for module in _imports(path)
        if _room(module) not in {"report", *REPORT_MAY_IMPORT}
    }
    assert outside == set(), "build what a report needs in harness/reporting/ and carry it in the report model"


def test_the_model_values_the_reports_read_import_nothing_that_imports_a_report() -> None:
    graph = _graph()
    below: set[str] = set()
    todo = set(REPORT_MAY_IMPORT)
    while todo:
        room = todo.pop()
        below.add(room)
        todo |= graph.get(room, set()) - below
    assert "report" not in below and "reporting" not in below and "compare" not in below


def test_the_command_line_is_the_top() -> None:
    """Only the command line and its commands import the commands: nothing below calls up into them."""
    graph = _graph()
    callers = {room for room, targets in graph.items() if {"commands", "cli"} & targets}
    assert callers <= {"cli", "__main__", "commands"}


def test_the_command_line_stays_thin() -> None:
    """cli.py parses and hands each command to harness/commands/; what they run lives below them."""
    assert len((HARNESS / "cli.py").read_text(encoding="utf-8").splitlines()) < 300


#: The longest a module of the harness may be: past it, split it where one concept ends and the next begins.
MODULE_LINES = 400


def test_no_module_is_over_the_bound() -> None:
    """The harness's modules and the benchmarks beside them (the house as drawn from the imports)."""
    root = HARNESS.parent
    lengths = {path.relative_to(root).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
               for folder in (HARNESS, root / "benchmarks") for path in folder.rglob("*.py")}
    assert len(lengths) > 100 and "benchmarks/bench_engine.py" in lengths, "the modules were read"
    assert {name: n for name, n in lengths.items() if n > MODULE_LINES} == {}
