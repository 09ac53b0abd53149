"""A broken case fails at load, naming the file and the field path."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.case import Case, discover_cases, load_case
from harness.engines import make_engine
from harness.engines.claude import ClaudeEngine
from harness.errors import CaseFormatError
from harness.outcome import Status
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, REPO, SUITE, CaseWriter

GOOD = """\
id: {id}
title: t
combination: tool -> tool
claims: [T1]
source: seed 001
documented_for: 2.1.252
steps:
  - prompt: Run echo HELLO.
    turns:
      - call: {{name: Bash, input: {{command: echo HELLO}}, expect: {{result: HELLO}}}}
      - say: done
"""


def test_every_committed_case_loads(committed_cases: list[Case]) -> None:
    assert committed_cases, "no cases found"
    assert len({c.id for c in committed_cases}) == len(committed_cases)


def test_a_good_case_loads(write_case: CaseWriter) -> None:
    case = load_case(write_case("ok", GOOD.format(id="ok")))
    assert case.steps[0].turns[0].call is not None
    assert case.steps[0].turns[0].call.expect is not None
    assert str(case.combination) == "tool -> tool"


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [
        (lambda s: s.replace("name: Bash", "name: 7"), "steps[0].turns[0].call.name", "is not of type 'string'"),
        (lambda s: s.replace("claims: [T1]", "claims: [Z9]"), "claims[0]", "not a claim id"),
        (lambda s: s.replace("id: bad", "id: other"), "id", "differs from the directory name"),
        (lambda s: s.replace("tool -> tool", "tool -> model"), "combination", "does not match"),
        (lambda s: s.replace("      - say: done\n", "      - {}\n"), "steps[0].turns[1]", ""),
        (lambda s: s.replace("prompt: Run", "promt: Run"), "steps[0]", "did you mean 'prompt' for 'promt'?"),
        (lambda s: s.replace("title: t", "titel: t"), "(top level)", "did you mean 'title' for 'titel'?"),
        (lambda s: s.replace("source: seed 001\n", ""), "source", "is required: the suite has a claims catalogue"),
        (lambda s: s.replace("tool -> tool", "model"), "combination", "does not match"),
        (lambda s: s + "    then: forever\n", "steps[0].then", "is not one of"),
        (lambda s: s.replace("      - say: done\n", "") + "    then: asks-again\n", "steps[0].then",
         "must be a say without a call"),
    ],
)
def test_a_broken_case_names_file_and_field(write_case: CaseWriter, edit, field: str, words: str) -> None:  # type: ignore[no-untyped-def]
    directory = write_case("bad", edit(GOOD.format(id="bad")))
    with pytest.raises(CaseFormatError) as err:
        load_case(directory, catalogue=SUITE.catalogue)
    assert err.value.path == str(directory / "case.yaml")
    assert err.value.field == field
    assert words in str(err.value)
    assert str(err.value).startswith(f"{directory / 'case.yaml'}: {field}: ")


TEAM = """\
id: {id}
title: a team's own hook still fires
{claims}steps:
  - prompt: Run echo HELLO.
    turns:
      - call: {{name: Bash, input: {{command: echo HELLO}}, expect: {{result: HELLO}}}}
      - say: done
"""


@pytest.mark.parametrize("claims", ["", "claims: [TEAM-LOG, hooks.audit]\n"])
def test_without_a_catalogue_research_metadata_is_optional(write_case: CaseWriter, claims: str) -> None:
    case = load_case(write_case("team", TEAM.format(id="team", claims=claims)))
    assert case.source is None and case.documented_for is None
    assert case.claims == (("TEAM-LOG", "hooks.audit") if claims else ())


def test_with_a_catalogue_the_metadata_is_required_and_claims_must_be_in_it(write_case: CaseWriter) -> None:
    bare = write_case("bare", TEAM.format(id="bare", claims=""))
    required = r"bare/case\.yaml: claims: is required: the suite has a claims catalogue"
    with pytest.raises(CaseFormatError, match=required):
        load_case(bare, catalogue=SUITE.catalogue)
    metadata = "claims: [TEAM-LOG]\nsource: a team\ndocumented_for: 2.1.332\n"
    labelled = write_case("labelled", TEAM.format(id="labelled", claims=metadata))
    with pytest.raises(CaseFormatError, match=r"claims\[0\]: 'TEAM-LOG' is not a claim id of CLAIMS.md"):
        load_case(labelled, catalogue=SUITE.catalogue)


def test_invalid_yaml_names_the_line(write_case: CaseWriter) -> None:
    directory = write_case("yaml", "id: yaml\ntitle: [unclosed\n")
    with pytest.raises(CaseFormatError) as err:
        load_case(directory)
    assert err.value.field.startswith("line ")
    assert "not valid YAML" in str(err.value)


def test_a_dangling_contrast_is_refused(write_case: CaseWriter) -> None:
    text = GOOD.format(id="c1") + "contrast_of: nowhere\n"
    directory = write_case("c1", text)
    with pytest.raises(CaseFormatError) as err:
        list(discover_cases(directory.parent))
    assert err.value.field == "contrast_of"


def test_the_documented_example_is_a_valid_case() -> None:
    import json

    import jsonschema
    import yaml

    text = (REPO / "docs" / "case-format.md").read_text(encoding="utf-8")
    example = yaml.safe_load(text.split("```yaml\n", 1)[1].split("```", 1)[0])
    schema = json.loads((REPO / "harness" / "case" / "case.schema.json").read_text(encoding="utf-8"))
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(example)]
    assert errors == []


def test_run_flags_become_the_engines_command_line(write_case: CaseWriter, tmp_path: Path) -> None:
    text = GOOD.format(id="flags").replace(
        "steps:",
        "run:\n  permission_mode: plan\n  flags:\n    disallowed_tools: [Write, 'Bash(rm *)']\n"
        "    setting_sources: [project]\n    plugin_dirs: [plugins/team]\n"
        "    agents: {helper: {description: d, prompt: p}}\n"
        "steps:",
    )
    case = load_case(write_case("flags", text))
    argv = ClaudeEngine(engine_version="2.1.332")._argv(
        Path("claude"), case, [(0, case.steps[0])], resume=None, debug_log=tmp_path / "d.log", workdir=tmp_path
    )
    joined = " ".join(argv)
    assert "--permission-mode plan" in joined
    assert "--disallowedTools Write --disallowedTools Bash(rm *)" in joined
    assert "--setting-sources project" in joined and f"--plugin-dir {tmp_path / 'plugins/team'}" in joined
    assert argv[argv.index("--agents") + 1] == '{"helper": {"description": "d", "prompt": "p"}}'


def test_a_flag_the_reference_engine_does_not_model_is_not_modelled(write_case: CaseWriter) -> None:
    text = GOOD.format(id="nm").replace("steps:", "run:\n  flags: {include_hook_events: true}\nsteps:")
    record = run_case(load_case(write_case("nm", text)), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status is Status.NOT_MODELLED and record.fault is not None
    assert "run.flags.include_hook_events" in record.fault.message


def test_a_flag_path_must_stay_in_the_working_copy(write_case: CaseWriter) -> None:
    text = GOOD.format(id="esc").replace("steps:", "run:\n  flags: {plugin_dirs: [../elsewhere]}\nsteps:")
    with pytest.raises(CaseFormatError) as err:
        load_case(write_case("esc", text))
    assert err.value.field == "run.flags.plugin_dirs[0]"


def test_sources_name_where_caller_and_callee_come_from(write_case: CaseWriter) -> None:
    text = GOOD.format(id="src").replace("steps:", "sources: plugin -> cli+project+user\nsteps:")
    case = load_case(write_case("src", text))
    assert case.sources is not None and case.sources.caller == ("plugin",)
    assert case.sources.callee == ("cli", "project", "user") and str(case.sources) == "plugin -> cli+project+user"
    record = run_case(case, make_engine("reference"), expectations=EXPECTATIONS)
    assert record.sources == "plugin -> cli+project+user"


@pytest.mark.parametrize("value", ["plugins -> project", "plugin ->", "user+", "plugin -> project -> user"])
def test_a_source_outside_the_vocabulary_is_named(write_case: CaseWriter, value: str) -> None:
    text = GOOD.format(id="badsrc").replace("steps:", f"sources: '{value}'\nsteps:")
    with pytest.raises(CaseFormatError) as err:
        load_case(write_case("badsrc", text))
    assert err.value.field == "sources"
