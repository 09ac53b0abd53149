"""Which built-ins a context is offered and what a call to an unoffered one gets (measured on 2.1.252 to
2.1.332), and WebFetch/WebSearch through the engine."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from harness.engines.reference import ReferenceEngine
from harness.errors import NotModelled as HarnessNotModelled
from harness.refengine import messages, tool_messages
from harness.refengine.agents import resolve_tools
from harness.refengine.config_model import AgentDef
from harness.refengine.conversation import Conversation
from harness.refengine.permission_rules import RuleSet
from harness.refengine.permissions import removed_by_deny
from harness.refengine.profiles import Profile, profile_for
from harness.refengine.tool_model import MODELLED_BUILTINS
from tests.conftest import CaseWriter, run_in_copy

POOL = tuple(sorted(MODELLED_BUILTINS))
P252, P332 = profile_for("2.1.252"), profile_for("2.1.332")


def agent(tools: tuple[str, ...] | None = None, disallowed: tuple[str, ...] = ()) -> AgentDef:
    return AgentDef(name="probe", builtin=False, tools=tools, disallowed_tools=disallowed, skills=(), hooks=(),
                    description="d", body="b")


def offered(definition: AgentDef | None, *, pool: tuple[str, ...] = POOL, profile: Profile = P252,
            withheld: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """What a subagent running ``definition`` is offered (the main thread is the ``None`` case)."""
    tools = resolve_tools(definition, pool, depth=1, cap=3, search_tools_hidden=True)
    context = Conversation(kind="subagent", system="", messages=[], pool=tools, depth=1,
                           explicit_tools=definition is not None and definition.tools is not None)
    context.withheld.update(withheld)
    return context.offered(profile)


def test_an_allowlist_of_read_grep_glob_is_offered_all_three_in_its_order() -> None:
    assert offered(agent(("Read", "Grep", "Glob"))) == ("Read", "Grep", "Glob")


def test_bash_in_the_list_hides_glob_and_grep() -> None:
    assert offered(agent(("Read", "Grep", "Glob", "Bash"))) == ("Read", "Bash")


def test_inheriting_pools_lack_them_even_without_bash() -> None:
    assert "Glob" not in offered(None)
    assert offered(agent(disallowed=("Bash",))) == ("Agent", "Edit", "NotebookEdit", "Read", "Skill", "WebFetch",
                                                     "WebSearch", "Write")


def test_a_skill_withholding_bash_reveals_them_in_sorted_places() -> None:
    assert offered(None, withheld=frozenset({"Bash"}))[:5] == ("Agent", "Bash", "Edit", "Glob", "Grep")


def test_a_bare_deny_rule_takes_bash_out_and_brings_them_in() -> None:
    rules = RuleSet.from_lists(allow=(), deny=("Bash", "Read(secret.txt)"), ask=())
    assert removed_by_deny(rules) == frozenset({"Bash"})
    pool = tuple(t for t in POOL if t not in removed_by_deny(rules))
    assert offered(None, pool=pool)[:4] == ("Agent", "Edit", "Glob", "Grep")


def test_2_1_332_defers_web_and_notebook_tools_in_inherited_pools_only() -> None:
    assert offered(None, profile=P332) == ("Agent", "Bash", "Edit", "Read", "Skill", "Write")
    assert offered(agent(("WebFetch", "WebSearch", "NotebookEdit")), profile=P332) == \
        ("WebFetch", "WebSearch", "NotebookEdit")


def test_todowrite_and_multiedit_are_dropped_from_lists() -> None:
    assert offered(agent(("Read", "TodoWrite", "MultiEdit"))) == ("Read",)


def test_unoffered_tool_messages() -> None:
    assert messages.no_such_tool("TodoWrite", known_builtin=False, bash_offered=True, says_continue=True,
                                 disabled=True) == ("<tool_use_error>Error: No such tool available: TodoWrite. "
                                                    "TodoWrite is disabled for this session, in subagents as well "
                                                    "as here.</tool_use_error>")
    assert messages.no_such_tool("MultiEdit", known_builtin=False, bash_offered=True) == \
        "<tool_use_error>Error: No such tool available: MultiEdit</tool_use_error>"
    assert messages.no_such_tool("Bash", known_builtin=True, bash_offered=False, says_continue=True,
                                 disabled=True).endswith("Bash is disabled for this session, in subagents as well "
                                                         "as here.</tool_use_error>")


# -- WebFetch and WebSearch through the engine -----------------------------------------------------

HEAD = """\
id: {id}
title: t
claims: [T3]
source: test
documented_for: 2.1.332
run: {{permission_mode: bypass}}
"""


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch_case(write_case: CaseWriter, case_id: str, url: str, settings: str | None = None) -> Path:
    files = {".claude/settings.json": settings} if settings else {}
    return write_case(case_id, HEAD.format(id=case_id) + f"""\
steps:
  - prompt: Fetch.
    turns:
      - call: {{name: WebFetch, input: {{url: "{url}", prompt: p}}}}
      - say: done
""", files=files)


def test_webfetch_offline_preflight(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = fetch_case(write_case, "preflight", "https://example.com/")
    first = run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path).model.exchanges[0]
    assert (first.result, first.is_error) == (tool_messages.webfetch_unverified("example.com"), True)


def test_webfetch_refused_connection(write_case: CaseWriter, tmp_path: Path) -> None:
    port = free_port()
    directory = fetch_case(write_case, "refused", f"http://127.0.0.1:{port}/x", '{"skipWebFetchPreflight": true}')
    first = run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path).model.exchanges[0]
    assert (first.result, first.is_error) == (f"connect ECONNREFUSED 127.0.0.1:{port}", True)


def test_websearch_asks_the_model_with_the_server_tool_and_quotes_it(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = write_case("search", HEAD.format(id="search") + """\
steps:
  - prompt: Search.
    turns:
      - call: {name: WebSearch, input: {query: cc harness}}
      - say: done
contexts:
  search:
    opens_with: "Perform a web search for the query: cc harness"
    turns:
      - offered: {tools: {exactly: [web_search]}}
        say: NOTHING-FOUND
""")
    model = run_in_copy(directory, ReferenceEngine(version="2.1.252"), tmp_path).model
    assert model.exchanges[1].problems == []
    assert model.exchanges[0].result == tool_messages.websearch_result("cc harness", "NOTHING-FOUND")
    assert model.exchanges[0].result.startswith('Web search results for query: "cc harness"\n\nNOTHING-FOUND\n\n\n')


def test_webfetch_of_a_non_http_url_is_not_modelled(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = write_case("bad", HEAD.format(id="bad") + """\
steps:
  - prompt: Fetch.
    turns:
      - call: {name: WebFetch, input: {url: not a url, prompt: p}}
      - say: done
""")
    with pytest.raises(HarnessNotModelled, match="WebFetch of a URL"):
        run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)


def test_writing_outside_the_working_copy_without_bypass_is_not_modelled(write_case: CaseWriter,
                                                                         tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    directory = write_case("outside", HEAD.format(id="outside").replace("bypass", "default") + f"""\
steps:
  - prompt: Write.
    turns:
      - call: {{name: Write, input: {{file_path: "{outside}", content: x}}}}
      - say: done
""", files={".claude/settings.json": '{"permissions": {"allow": ["Write"]}}'})
    with pytest.raises(HarnessNotModelled, match="Write outside the working copy"):
        run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path / "run")
    assert not outside.exists()
