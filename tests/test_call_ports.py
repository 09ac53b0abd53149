"""``{{port:NAME}}`` in a scripted call's input: filled in as the call is sent, checked at load."""

from __future__ import annotations

import pytest

from harness.case import load_case
from harness.case.placeholders import filled
from harness.errors import CaseFormatError
from harness.model_request import ModelRequest
from harness.scripted import ScriptedModel
from tests.conftest import CaseWriter
from tests.test_scripted import CASE, SAY

CALL = '      - call: {{name: WebFetch, input: {{url: "http://127.0.0.1:{{{{port:{server}}}}}/page", prompt: p}}}}\n'
SERVERS = "servers:\n  site:\n    command: [python3, server.py]\n"


def case_text(case_id: str, server: str) -> str:
    """test_scripted's case, its call naming ``server``'s port, with a server ``site``."""
    return CASE.format(id=case_id, turns=CALL.format(server=server) + SAY) + SERVERS


def test_filled_replaces_known_servers_only() -> None:
    value = {"url": "http://127.0.0.1:{{port:site}}/a", "list": ["{{port:site}}", 3], "other": "{{port:x}}"}
    assert filled(value, {"site": 4242}) == {"url": "http://127.0.0.1:4242/a", "list": ["4242", 3],
                                             "other": "{{port:x}}"}


def test_the_call_is_sent_with_the_port_and_recorded_with_the_placeholder(write_case: CaseWriter) -> None:
    case = load_case(write_case("ported", case_text("ported", "site")))
    model = ScriptedModel(case=case, ports={"site": 4242})
    model.begin_step(0)
    user = {"role": "user", "content": [{"type": "text", "text": "Run echo HELLO now."}]}
    sent = model.respond(ModelRequest(system="", messages=(user,), tools=("WebFetch",)))
    assert sent[0]["input"]["url"] == "http://127.0.0.1:4242/page"
    assert model.exchanges[0].reply.call is not None
    assert model.exchanges[0].reply.call.input["url"] == "http://127.0.0.1:{{port:site}}/page"


def test_a_call_naming_no_server_fails_at_load(write_case: CaseWriter) -> None:
    with pytest.raises(CaseFormatError, match=r"steps\[0\]\.turns\[0\]\.call\.input.*port:nope"):
        load_case(write_case("unported", case_text("unported", "nope")))
