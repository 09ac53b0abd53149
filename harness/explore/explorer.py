"""Differential exploration: generated cases on ``reference@V`` and ``claude@V``, disagreements shrunk.

``explore`` draws ``budget`` scenarios from the grammar with a seed (the same seed draws the same
scenarios), runs each on both engines, and counts agreement. For every class of disagreement it found,
Hypothesis then searches for the smallest scenario that still shows it (``hypothesis.find``), and that
minimal case is written out with the real engine's answers as its expectations, ready to be given
claims and added to a suite. Every run of both engines goes to one results file, so a long exploration
loses nothing it finished.

Every drawn case is kept as a case folder in ``<out>/cases/<case-id>/`` (its scenario beside it, as
``<case-id>.scenario.json``), so that ``rejudge`` runs the very case that was recorded, whatever the grammar
draws today; ``store_drawn_cases`` writes those folders for a results file made before they were kept.

Each case ends in one of three verdicts: **agree**; **not-modelled** (the reference engine abstained:
nothing it said can be wrong, and the real engine is not run unless asked, since its answer would change
no figure); **false verdict** (the reference engine answered, and not what the real engine did). A case
whose real run is no measurement (it timed out, crashed, or an MCP server the case declares did not
connect: ``observe.measurement_fault``) gets no verdict: it is listed as **unjudged**, with the reason.
"""

from __future__ import annotations

import random
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from harness import results, results_writer
from harness.case import load_case
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.expectations import Expectations
from harness.explore.drift import drift
from harness.explore.grammar import scenarios
from harness.explore.observe import classes, disagreements, measurement_fault, status_text
from harness.explore.scenario import Scenario, scenario_from_json, scenario_json
from harness.outcome import Status
from harness.results import Record
from harness.runner import run_case

_AGREE, NOT_MODELLED, FALSE_VERDICT, UNJUDGED = "agree", "not-modelled", "false verdict", "unjudged"
CASES = "cases"
"""The folder beside an exploration's results file that holds the cases it drew (and its minimal cases)."""


@dataclass(kw_only=True)
class Outcome:
    """One scenario on both engines (``real`` is None when the reference engine abstained and the real
    engine was not run)."""

    scenario: Scenario
    case_id: str
    found: list[str]
    reference: Record
    real: Record | None
    unjudged: str | None = None
    """Why the real run is no measurement of the case (``observe.measurement_fault``), if it is not."""

    @property
    def verdict(self) -> str:
        if self.unjudged is not None:
            return UNJUDGED
        if self.reference.status is Status.NOT_MODELLED:
            return NOT_MODELLED
        return FALSE_VERDICT if self.found else _AGREE


@dataclass(kw_only=True)
class Exploration:
    version: str
    seed: int
    outcomes: list[Outcome] = field(default_factory=list)
    minimal: dict[str, Path] = field(default_factory=dict)
    """A disagreement class -> the minimal case written for it."""
    unjudged: dict[str, str] = field(default_factory=dict)
    """Cases without a verdict -> why: the real run is no measurement of the case (it timed out, crashed, an
    MCP server did not connect), or (``rejudge``) the reference engine abstained at the run, so the real
    engine was not run, and answers now. They are not in ``outcomes``."""
    redrawn: list[str] = field(default_factory=list)
    """Cases ``rejudge`` found no stored folder for and drew again from the seed with today's grammar (which
    may not be the case that was recorded, if the grammar changed since)."""

    def add(self, outcome: Outcome) -> None:
        """``outcome`` among the judged cases, or among the unjudged with its reason."""
        if outcome.unjudged is not None:
            self.unjudged[outcome.case_id] = outcome.unjudged
        else:
            self.outcomes.append(outcome)

    @property
    def agreement(self) -> float:
        return sum(not o.found for o in self.outcomes) / len(self.outcomes) if self.outcomes else 1.0

    def class_counts(self) -> Counter[str]:
        return Counter(c for o in self.outcomes for c in classes(o.found))

    def verdicts(self) -> Counter[str]:
        """How many cases ended in each verdict (agree, not-modelled, false verdict)."""
        return Counter({_AGREE: 0, NOT_MODELLED: 0, FALSE_VERDICT: 0}) + Counter(o.verdict for o in self.outcomes)

    def false_classes(self) -> Counter[str]:
        """The disagreement classes of the false verdicts: what the reference engine must fix or abstain on."""
        return Counter(c for o in self.outcomes if o.verdict == FALSE_VERDICT for c in classes(o.found))


def write_case(scenario: Scenario, folder: Path, case_id: str, *, expect_from: Record | None = None) -> Path:
    """The scenario as a case folder; with ``expect_from``, that record's answers become its expectations."""
    directory = folder / case_id
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    case = scenario.case(case_id)
    if expect_from is not None and expect_from.transcript is not None:
        _expect(case, expect_from.transcript)
    (directory / "case.yaml").write_text(yaml.safe_dump(case, sort_keys=False, allow_unicode=True), encoding="utf-8")
    for name, text in scenario.files().items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return directory


def store_case(scenario: Scenario, cases: Path, case_id: str) -> Path:
    """``scenario`` as the case folder ``cases/<case_id>/``, its scenario as JSON beside it (not inside: every
    file of the folder is the run's fixture). The folder is written aside and renamed in, so a re-judge
    running meanwhile finds a whole case or none."""
    cases.mkdir(parents=True, exist_ok=True)
    (cases / f"{case_id}.scenario.json").write_text(scenario_json(scenario), encoding="utf-8")
    aside = Path(tempfile.mkdtemp(prefix=f".{case_id}-", dir=cases))
    try:
        written = write_case(scenario, aside, case_id)
        directory = cases / case_id
        if directory.exists():
            shutil.rmtree(directory)
        written.rename(directory)
    finally:
        shutil.rmtree(aside, ignore_errors=True)
    return directory


def stored_case(folders: list[Path], case_id: str) -> tuple[Path, Scenario] | None:
    """The case folder ``case_id`` and its scenario, from the first of ``folders`` that holds it."""
    for cases in folders:
        directory = cases / case_id
        if (directory / "case.yaml").is_file():
            return directory, scenario_from_json((cases / f"{case_id}.scenario.json").read_text(encoding="utf-8"))
    return None


def _expect(case: dict[str, Any], transcript: dict[str, Any]) -> None:
    """Each main-thread call's ``expect.result`` as the engine answered it (contexts are left open)."""
    for ex in transcript.get("exchanges", ()):
        if ex.get("context") != "main" or "call" not in ex or ex.get("result") is None:
            continue
        turn = case["steps"][ex["step"] - 1]["turns"][ex["turn"] - 1]
        turn["call"]["expect"] = {"result": ex["result"], "is_error": bool(ex.get("is_error"))}


def run_both(scenario: Scenario, *, version: str, workdir: Path, case_id: str, real_if_abstained: bool = False
             ) -> Outcome:
    """``scenario`` on reference@V, then on claude@V unless the reference engine abstained (and
    ``real_if_abstained`` is off): a not-modelled case is not-modelled whatever the real engine does."""
    directory = store_case(scenario, workdir, case_id)
    case = load_case(directory)
    none = Expectations(root=workdir / "no-expectations")  # a generated case has no known differences
    reference = run_case(case, make_engine(EngineName("reference", version)), expectations=none)
    if reference.status is Status.NOT_MODELLED and not real_if_abstained:
        return Outcome(scenario=scenario, case_id=case_id, found=[f"status: {status_text(reference)} -> (not run)"],
                       reference=reference, real=None)
    real = run_case(case, make_engine(EngineName.claude(version)), expectations=none)
    return judged(scenario, case_id, reference, real)


def judged(scenario: Scenario, case_id: str, reference: Record, real: Record) -> Outcome:
    """The two records compared, or the case unjudged when the real run is no measurement of it."""
    fault = measurement_fault(reference, real)
    return Outcome(scenario=scenario, case_id=case_id, reference=reference, real=real, unjudged=fault,
                   found=[] if fault is not None else disagreements(reference, real))


def explore(
    *,
    version: str,
    budget: int,
    seed: int,
    out: Path,
    shrink_budget: int = 60,
    progress: Callable[[Outcome, int], None] | None = None,
    shard: tuple[int, int] = (1, 1),
    start: int = 0,
    real_if_abstained: bool = False,
) -> Exploration:
    """Draw ``budget`` scenarios with ``seed``, run them, then shrink one example of each disagreement class.

    ``shard`` (i, n) runs only the scenarios whose index is i - 1 modulo n, and ``start`` skips the first
    ``start`` scenarios (to finish an interrupted run): the same draw split over processes, each writing
    its own results file, which ``rejudge`` and ``cc-harness report`` read together."""
    out.mkdir(parents=True, exist_ok=True)
    exploration = Exploration(version=version, seed=seed)
    scratch = Path(tempfile.mkdtemp(prefix="cch-explore-"))
    head = results_writer.header(
        engines=[EngineName("reference", version).text(), EngineName.claude(version).text()],
        options={"command": "explore", "seed": seed, "budget": budget, "shard": f"{shard[0]}/{shard[1]}",
                 "start": start},
        revision="explore",
    )
    part = "" if shard == (1, 1) and not start else f"-from{start}-shard{shard[0]}of{shard[1]}"
    try:
        with results_writer.Writer(out / f"explore-{version}-seed{seed}{part}.jsonl", head=head) as writer:
            for n, scenario in enumerate(draw(budget, seed)):
                if n < start or n % shard[1] != shard[0] - 1:
                    continue
                outcome = run_both(scenario, version=version, workdir=out / CASES, case_id=_case_id(seed, n),
                                   real_if_abstained=real_if_abstained)
                exploration.add(outcome)
                writer.add(outcome.reference)
                if outcome.real is not None:
                    writer.add(outcome.real)
                if progress is not None:
                    progress(outcome, n)
        for cls in sorted(exploration.false_classes()) if shrink_budget > 0 else ():
            minimal = _shrink(cls, version=version, seed=seed, budget=shrink_budget, workdir=scratch)
            if minimal is not None and minimal.real is not None:
                name = _slug(cls)
                exploration.minimal[cls] = write_case(minimal.scenario, out / CASES, name, expect_from=minimal.real)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return exploration


def rejudge(paths: list[Path], *, progress: Callable[[Outcome, int], None] | None = None, partial: bool = False
            ) -> Exploration:
    """An earlier exploration's results files judged again: each case it ran, from its stored folder
    (``<results folder>/cases/<case-id>/``), run on the reference engine as it is now, against the real
    engine's records in the files (which are not run again). The way to measure a reference-engine fix on
    cases whose real answers are known. A case with no stored folder is drawn again from the seed with
    today's grammar, and named in ``redrawn`` (and on stderr): it is the recorded case only if the grammar
    has not changed since. ``partial``: a run still going (or killed) is judged on the cases it finished."""
    done = results.merge(paths, partial=partial)
    named = ", ".join(map(str, paths))
    seed, budget = _seed_and_budget(done.head, named)
    real_engine = next((e for e in map(EngineName.parse, done.head["engines"]) if e.family == "claude"), None)
    if real_engine is None:
        raise results.ResultsError(f"{named}: line 1: engines: no claude engine ({', '.join(done.head['engines'])}):"
                                   " an exploration compares the reference engine with claude")
    version = real_engine.version or ""
    real = {r.case: r for r in done.records if r.engine == real_engine}
    exploration = Exploration(version=version, seed=seed)
    folders = list(dict.fromkeys(p.parent / CASES for p in paths))
    drawn: list[Scenario] = []
    scratch = Path(tempfile.mkdtemp(prefix="cch-rejudge-"))
    none = Expectations(root=scratch / "no-expectations")
    ran = {r.case for r in done.records}
    try:
        for n in range(budget):
            case_id = _case_id(seed, n)
            if case_id not in ran:
                continue  # the run was interrupted before this case
            stored = stored_case(folders, case_id)
            if stored is None:
                drawn = drawn or draw(budget, seed)
                exploration.redrawn.append(case_id)
                stored = write_case(drawn[n], scratch, case_id), drawn[n]
            directory, scenario = stored
            case = load_case(directory)
            reference = run_case(case, make_engine(EngineName("reference", version)), expectations=none)
            if case_id not in real:  # the reference engine abstained when the run was made
                if reference.status is Status.NOT_MODELLED:
                    exploration.outcomes.append(Outcome(scenario=scenario, case_id=case_id, reference=reference,
                                                        found=[f"status: {status_text(reference)}"], real=None))
                else:  # it answers now: only a real run can judge it
                    exploration.unjudged[case_id] = "the reference engine abstained at the run: claude was not run"
                continue
            outcome = judged(scenario, case_id, reference, _unordered(real[case_id], case.unordered_files))
            exploration.add(outcome)
            if progress is not None:
                progress(outcome, n)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if exploration.redrawn:
        print(f"rejudge: {len(exploration.redrawn)} case(s) had no folder in {', '.join(map(str, folders))} and were"
              f" drawn again from seed {seed} with today's grammar: {' '.join(exploration.redrawn)}", file=sys.stderr)
    return exploration


def _seed_and_budget(head: dict[str, Any], named: str) -> tuple[int, int]:
    """The seed and budget an exploration's header holds; any other results file is a one-line error."""
    options = head.get("options")
    options = options if isinstance(options, dict) else {}
    out = []
    for key in ("seed", "budget"):
        if key not in options:
            raise results.ResultsError(f"{named}: line 1: options.{key} is missing: not a results file of"
                                       f" cc-harness explore (written by {options.get('command', 'another command')})")
        value = options[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise results.ResultsError(f"{named}: line 1: options.{key}: {value!r} is not a whole number")
        out.append(value)
    return out[0], out[1]


def store_drawn_cases(path: Path) -> list[Path]:
    """For a results file written before the explorer kept its cases: the folder of each case it ran, drawn
    again from its seed with today's grammar, written to ``<its folder>/cases/``. Run it while the grammar is
    the one the file was recorded with: each drawn case is checked against the real engine's record (the
    calls it made are the case's scripted calls), and a mismatch is an error, nothing written for it. A
    case already stored is left as it is. Returns the folders written."""
    done = results.read(path, partial=True)
    seed, budget = _seed_and_budget(done.head, str(path))
    # the real engine's record where there is one (the reference engine's may be a bare abstention)
    ran = {r.case: r for r in sorted(done.records, key=lambda r: r.engine.family == "claude")}
    cases = path.parent / CASES
    written: list[Path] = []
    for n, scenario in enumerate(draw(budget, seed)):
        case_id = _case_id(seed, n)
        if case_id not in ran or stored_case([cases], case_id) is not None:
            continue
        if mismatch := drift(scenario.case(case_id), ran[case_id]):
            raise results.ResultsError(f"{path}: {case_id}: today's grammar draws another case than the one"
                                       f" recorded ({mismatch})")
        written.append(store_case(scenario, cases, case_id))
    return written


def _unordered(record: Record, names: tuple[str, ...]) -> Record:
    """``record`` with the lines of each of ``names`` sorted, as a run of today's case would record them
    (a results file written before the grammar marked a file unordered keeps the engine's race order)."""
    files = (record.transcript or {}).get("files", {})
    for name in names:
        text = files.get(name)
        if isinstance(text, str):
            files[name] = "\n".join(sorted(text.splitlines())) + ("\n" if text.endswith("\n") else "")
    return record


def draw(budget: int, seed: int) -> list[Scenario]:
    """``budget`` scenarios, the same for the same seed (Hypothesis draws them without shrinking)."""
    drawn: list[Scenario] = []

    @settings(
        max_examples=budget,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    def collect(data: st.DataObject) -> None:
        drawn.append(data.draw(scenarios()))

    hypothesis_seed(seed)(given(st.data())(collect))()
    random.Random(seed).shuffle(drawn)  # keep the order stable for a seed, mixing small and large draws
    return drawn[:budget]


def _shrink(cls: str, *, version: str, seed: int, budget: int, workdir: Path) -> Outcome | None:
    """The smallest scenario Hypothesis finds within ``budget`` runs that still shows disagreement ``cls``."""
    tried = Counter[str]()

    def shows(scenario: Scenario) -> bool:
        tried["runs"] += 1
        outcome = run_both(scenario, version=version, workdir=workdir, case_id=f"shrink-{tried['runs']}")
        return outcome.verdict == FALSE_VERDICT and cls in classes(outcome.found)

    options = settings(max_examples=budget, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    try:
        minimal = find(scenarios(), shows, settings=options, random=random.Random(seed))
    except NoSuchExample:
        return None
    return run_both(minimal, version=version, workdir=workdir, case_id="minimal")


def _case_id(seed: int, n: int) -> str:
    return f"x{seed}-{n:04d}"


def _slug(cls: str) -> str:
    return "explore-" + re.sub(r"[^a-z0-9]+", "-", cls.lower()).strip("-")[:60]
