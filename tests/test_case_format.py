"""A broken case fails at load, naming the file and the field path."""

from __future__ import annotations

import pytest

from harness.case import Case, discover_cases, load_case
from harness.errors import CaseFormatError
from tests.conftest import REPO, SUITE, CaseWriter

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
