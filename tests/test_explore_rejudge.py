"""A re-judge runs the case that was recorded: the explorer keeps every drawn case as a folder beside its
results file, ``rejudge`` runs that folder (not what the grammar draws today from the seed), and
``store_drawn_cases`` gives a results file recorded before the folders were kept its folders once."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from harness import results_writer
from harness.case import load_case
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.expectations import Expectations
from harness.explore.explorer import CASES, draw, rejudge, store_case, store_drawn_cases, stored_case
from harness.explore.scenario import Call, Scenario, Step, scenario_from_json, scenario_json
from harness.results import Record, ResultsError
from harness.runner import run_case
from tests.conftest import PINNED

pytestmark = pytest.mark.xdist_group("test_explore")

SEED, BUDGET = 5, 2
VERSION = PINNED[-1]


def _results(folder: Path, records: list[Record]) -> Path:
    """An explorer results file for seed ``SEED`` holding ``records``."""
    head = results_writer.header(
        engines=[EngineName("reference", VERSION).text(), EngineName.claude(VERSION).text()],
        options={"command": "explore", "seed": SEED, "budget": BUDGET, "shard": "1/1", "start": 0},
        revision="explore",
    )
    path = folder / f"explore-{VERSION}-seed{SEED}.jsonl"
    with results_writer.Writer(path, head=head) as writer:
        for record in records:
            writer.add(record)
    return path


def _as_real(record: Record) -> Record:
    """The reference engine's record as if claude had answered the same (the real answer is not the point)."""
    return dataclasses.replace(record, engine=EngineName.claude(VERSION),
                               transcript={**(record.transcript or {}), "engine": EngineName.claude(VERSION).text()})


def _reference(directory: Path, tmp_path: Path) -> Record:
    none = Expectations(root=tmp_path / "no-expectations")
    return run_case(load_case(directory), make_engine(EngineName("reference", VERSION)), expectations=none)


# A case no draw makes: the grammar's Bash calls say "echo M<n>", never this
STORED = Scenario(skills=(), agents=(), hooks=(), rules=(), trusted=True, mode="bypass",
                  steps=(Step(session="new", calls=(Call(tool="Bash", input={"command": "echo STORED-CASE"}),)),))


def test_a_rejudge_runs_the_stored_case_not_what_the_grammar_draws(tmp_path: Path) -> None:
    case_id = f"x{SEED}-0000"
    directory = store_case(STORED, tmp_path / CASES, case_id)
    real = _as_real(_reference(directory, tmp_path))
    path = _results(tmp_path, [real])
    assert draw(BUDGET, SEED)[0] != STORED

    judged = rejudge([path])
    assert judged.redrawn == []
    [outcome] = judged.outcomes
    assert outcome.scenario == STORED  # the stored scenario, read back
    assert outcome.found == []  # the same case as recorded, so the same answers
    calls = [ex["call"] for ex in outcome.reference.transcript["exchanges"] if "call" in ex]  # type: ignore[index]
    assert calls == [{"name": "Bash", "input": {"command": "echo STORED-CASE"}}]

    # without the folder, the case is drawn again (and named): another case, which disagrees with the record
    (tmp_path / CASES / case_id / "case.yaml").unlink()
    again = rejudge([path])
    assert again.redrawn == [case_id]
    assert again.outcomes[0].scenario == draw(BUDGET, SEED)[0] and again.outcomes[0].found != []


def test_a_scenario_reads_back_as_it_was_drawn() -> None:
    for scenario in draw(40, seed=9):
        assert scenario_from_json(scenario_json(scenario)) == scenario


def test_a_stored_scenario_with_a_field_today_has_not_still_reads() -> None:
    data = json.loads(scenario_json(STORED))
    data["retired_field"] = True
    del data["mcp"]  # a field added since takes its default
    assert scenario_from_json(json.dumps(data)) == STORED


def test_store_drawn_cases_writes_the_recorded_cases_once_and_refuses_a_drift(tmp_path: Path) -> None:
    drawn = draw(BUDGET, SEED)
    scratch = tmp_path / "scratch"
    records = [_as_real(_reference(store_case(s, scratch, f"x{SEED}-{n:04d}"), tmp_path)) for n, s in enumerate(drawn)]
    path = _results(tmp_path / "run", records)

    written = store_drawn_cases(path)
    assert [d.name for d in written] == [f"x{SEED}-0000", f"x{SEED}-0001"]
    stored = stored_case([path.parent / CASES], f"x{SEED}-0001")
    assert stored is not None and stored[1] == drawn[1]
    assert store_drawn_cases(path) == []  # a stored case is left as it is

    # a record whose calls are not the drawn case's: the grammar changed since it was recorded
    other = store_case(STORED, scratch, f"x{SEED}-0000")
    path = _results(tmp_path / "drifted", [_as_real(_reference(other, tmp_path))])
    with pytest.raises(ResultsError, match="draws another case than the one recorded"):
        store_drawn_cases(path)
    assert not (path.parent / CASES / f"x{SEED}-0000").exists()


def test_the_command_line_stores_a_results_files_cases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cc-harness explore --store-cases FILE`` writes the folders ``store_drawn_cases`` writes, and says how many."""
    from harness.cli import main

    drawn = draw(BUDGET, SEED)
    scratch = tmp_path / "scratch"
    records = [_as_real(_reference(store_case(s, scratch, f"x{SEED}-{n:04d}"), tmp_path)) for n, s in enumerate(drawn)]
    path = _results(tmp_path / "run", records)
    assert main(["explore", "--store-cases", str(path)]) == 0
    assert f"{path}: 2 case folder(s) written to {path.parent / CASES}" in capsys.readouterr().out
    assert sorted(d.name for d in (path.parent / CASES).iterdir() if d.is_dir()) == [f"x{SEED}-0000", f"x{SEED}-0001"]


def test_the_command_line_rejudges_a_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cc-harness explore --rejudge FILE`` prints the verdicts of ``rejudge`` on the file, as a run prints its own."""
    from harness.cli import main

    directory = store_case(STORED, tmp_path / CASES, f"x{SEED}-0000")
    path = _results(tmp_path, [_as_real(_reference(directory, tmp_path))])
    assert main(["explore", "--rejudge", str(path)]) == 0
    printed = capsys.readouterr().out
    assert f"claude@{VERSION}, seed {SEED}: 1 generated cases, agreement 100.0% (1 agree, 0 not-modelled" in printed


def test_explore_without_a_version_or_a_file_to_rejudge_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli import main

    assert main(["explore"]) == 2
    assert "--version is required" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("engines", "options", "words"),
    [
        (None, {"command": "run"}, "options.seed"),  # a results file of `run`, not of the explorer
        (None, {"command": "explore", "seed": "x", "budget": BUDGET}, "options.seed: 'x' is not a whole number"),
        (None, {"command": "explore", "seed": SEED, "budget": -3}, "options.budget: -3"),
        (["reference@2.1.332"], {"command": "explore", "seed": SEED, "budget": BUDGET}, "no claude engine"),
    ],
)
def test_a_results_file_that_is_no_exploration_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engines: list[str] | None, options: dict[str, object],
    words: str,
) -> None:
    from harness.cli import main

    head = results_writer.header(
        engines=engines or [EngineName("reference", VERSION).text(), EngineName.claude(VERSION).text()],
        options=options, revision="explore",
    )
    path = tmp_path / "r.jsonl"
    with results_writer.Writer(path, head=head):
        pass
    assert main(["explore", "--rejudge", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and words in err and len(err.strip().splitlines()) == 1, err
    if engines is None:  # storing drawn cases needs a seed and a budget, and no claude record
        with pytest.raises(ResultsError, match="options"):
            store_drawn_cases(path)
