"""The grid places a case about one part alone (``combination: hook``) in its caller's ``alone`` column."""

from __future__ import annotations

from harness.case.spec import ALONE, Combination
from harness.engine_name import EngineName
from harness.outcome import Status
from harness.report import markdown, terminal
from harness.reporting import grid, model_of
from harness.results import Record

REFERENCE = EngineName("reference")


def _record(case: str, combination: str, status: Status = Status.PASS) -> Record:
    return Record(case=case, engine=REFERENCE, status=status, combination=combination, claims=("H8",), flags=(),
                  duration=0.0)


def test_a_single_part_combination_reads_and_prints_as_the_part() -> None:
    alone = Combination.parse("hook")
    assert (alone.caller, alone.callee, str(alone)) == ("hook", ALONE, "hook")
    assert str(Combination.parse("hook -> tool")) == "hook -> tool"


def test_a_case_about_one_part_is_counted_in_its_alone_cell_and_nowhere_else() -> None:
    records = [_record("single-a", "hook"), _record("pair", "hook -> tool", Status.FAIL)]
    cells = {(c.caller, c.callee): c for c in grid.cells(records, engine=REFERENCE)}
    assert cells[("hook", ALONE)].cases == ("single-a",)
    assert cells[("hook", "tool")].cases == ("pair",)
    assert sum(len(c.cases) for c in cells.values()) == 2
    assert "alone" in terminal.grid_text(grid.engine_grid(records, engine=REFERENCE)).splitlines()[0]


def test_the_markdown_grid_has_the_alone_column() -> None:
    text = markdown.render(model_of([_record("single-a", "hook")]))
    header = next(line for line in text.splitlines() if line.startswith("| caller ↓ / callee →"))
    hook_row = next(line for line in text.splitlines() if line.startswith("| **hook** |"))
    assert header.rstrip(" |").endswith("alone")
    assert hook_row.split("|")[-2].strip().endswith("1 pass")
