"""Shards merge into the same report as one unsharded run (cases of the suite, really run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness import results
from harness.cli import main
from harness.report import html, junit, markdown
from harness.reporting import model_of

#: The whole suite on the reference engine: deterministic (the real claude binaries are not: some cases
#: flip between runs, which would make the two reports differ for a reason that has nothing to do with
#: sharding) and fast enough to run three times.
ENGINE = "reference"

#: Three families of the suite's cases (81 cases, in the skill, subagent and tool rows of the grid): enough
#: for shards to split unevenly, without the cases that start MCP servers, whose start-up is most of the
#: suite's time and nothing that sharding touches.
CASES = ("skill-*", "subagent-*", "user-*")

#: one worker builds ``runs`` (the cases run three times) for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_shard")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("shards")
    out = {}
    for name, shard in (("all", None), ("1", "1/2"), ("2", "2/2")):
        path = root / f"{name}.jsonl"
        argv = ["run", "--engine", ENGINE, "--results", str(path), *(f"--case={glob}" for glob in CASES)]
        main([*argv, "--shard", shard] if shard else argv)
        out[name] = path
    return out


def _without_times(xml: str) -> str:
    return re.sub(r' time="[0-9.]+"', "", xml)


def test_each_shard_ran_part_of_the_cases(runs: dict[str, Path]) -> None:
    everything = results.read(runs["all"]).records
    first = results.read(runs["1"]).records
    second = results.read(runs["2"]).records
    assert first and second, "both shards have cases"
    assert {r.case for r in first}.isdisjoint({r.case for r in second})
    assert sorted(r.case for r in first + second) == sorted(r.case for r in everything)
    assert results.read(runs["1"]).head["options"]["shard"] == "1/2"


def test_merged_shards_give_the_unsharded_report(runs: dict[str, Path]) -> None:
    whole = results.merge([runs["all"]]).records
    shards = results.merge([runs["2"], runs["1"]])  # order of the files does not matter
    head, merged = shards.head, shards.records
    assert head["shards"] == ["2/2", "1/2"]
    assert [(r.case, r.status) for r in merged] == [(r.case, r.status) for r in whole]
    assert markdown.render(model_of(merged)) == markdown.render(model_of(whole))
    assert _without_times(junit.render(model_of(merged))) == _without_times(junit.render(model_of(whole)))
    assert html.render(model_of(merged)) == html.render(model_of(whole))


def test_report_command_takes_the_shard_files(runs: dict[str, Path], tmp_path: Path) -> None:
    sharded, whole = tmp_path / "sharded.md", tmp_path / "whole.md"
    scratch = ["--html", str(tmp_path / "r.html"), "--junit", str(tmp_path / "j.xml")]
    assert main(["report", "--results", str(runs["1"]), str(runs["2"]), "--markdown", str(sharded), *scratch]) == 0
    assert main(["report", "--results", str(runs["all"]), "--markdown", str(whole), *scratch]) == 0
    assert sharded.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    # And --check accepts the sharded results against the report the unsharded run wrote.
    assert main(["report", "--results", str(runs["1"]), str(runs["2"]), "--markdown", str(whole), "--check"]) == 0
