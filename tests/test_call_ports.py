"""``{{port:NAME}}`` in a scripted call's input: filled in as the call is sent, checked at load."""

from __future__ import annotations

import pytest

from harness.case import load_case
from harness.case.placeholders import filled
from harness.errors import CaseFormatError
from harness.scripted import ModelRequest, ScriptedModel
from tests.conftest import CaseWriter

CASE = """\
id: {id}
title: t
combination: tool -> tool
claims: [T1]
source: seed 001
documented_for: 2.1.252
run: {{permission_mode: bypass}}
servers:
  site:
    command: [python3, server.py]
steps:
  - prompt: Fetch the page.
    turns:
      - call: {{name: WebFetch, input: {{url: "http://127.0.0.1:{{{{port:{server}}}}}/page", prompt: p}}}}
      - say: done
"""


def test_filled_replaces_known_servers_only() -> None:
    value = {"url": "http://127.0.0.1:{{port:site}}/a", "list": ["{{port:site}}", 3], "other": "{{port:x}}"}
    assert filled(value, {"site": 4242}) == {"url": "http://127.0.0.1:4242/a", "list": ["4242", 3],
                                             "other": "{{port:x}}"}


def test_the_call_is_sent_with_the_port_and_recorded_with_the_placeholder(write_case: CaseWriter) -> None:
    case = load_case(write_case("ported", CASE.format(id="ported", server="site")))
    model = ScriptedModel(case=case, ports={"site": 4242})
    model.begin_step(0)
    user = {"role": "user", "content": [{"type": "text", "text": "Fetch the page."}]}
    sent = model.respond(ModelRequest(system="", messages=(user,), tools=("WebFetch",)))
    assert sent[0]["input"]["url"] == "http://127.0.0.1:4242/page"
    assert model.exchanges[0].reply.call is not None
    assert model.exchanges[0].reply.call.input["url"] == "http://127.0.0.1:{{port:site}}/page"


def test_a_call_naming_no_server_fails_at_load(write_case: CaseWriter) -> None:
    with pytest.raises(CaseFormatError, match=r"steps\[0\]\.turns\[0\]\.call\.input.*port:nope"):
        load_case(write_case("unported", CASE.format(id="unported", server="nope")))
