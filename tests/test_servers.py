"""A case's servers: started with the run, their port written into the working copy, stopped after."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from harness.case import load_case
from harness.engines import make_engine
from harness.errors import CaseFormatError
from harness.processes import COOKIE
from harness.runner import run_case
from harness.transcript import Normaliser
from tests.conftest import EXPECTATIONS, CaseWriter

CASE = """\
id: {id}
title: t
claims: [H12]
source: seed 000
documented_for: 2.1.252
run: {{env: {{PID_DIR: "{pid_dir}"}}}}
servers:
  sink:
    command: {command}
steps:
  - prompt: Say hello.
    turns:
      - say: Hello.
effects:
  - {{path: requests.txt, content: "POST /prompt UserPromptSubmit\\n"}}
"""

SINK = """\
import json, os
from http.server import BaseHTTPRequestHandler, HTTPServer

class Sink(BaseHTTPRequestHandler):
    def do_POST(self):
        event = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["hook_event_name"]
        with open("requests.txt", "a") as f:
            f.write(f"POST {self.path} {event}\\n")
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

with open(os.path.join(os.environ["PID_DIR"], "sink.pid"), "w") as f:
    f.write(str(os.getpid()))
server = HTTPServer(("127.0.0.1", 0), Sink)
print(server.server_port, flush=True)
server.serve_forever()
"""

SETTINGS = """\
{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:{{port:sink}}/prompt"}]}]}}
"""


def _running(tag: str) -> list[str]:
    """``ps`` lines of live (not zombie) processes whose command line holds ``tag``. A server and what it starts
    run in a PID namespace of their own where the machine allows one: the pids they see are not these."""
    ps = subprocess.run(["ps", "-ww", "-eo", "pid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    return [line for line in ps.splitlines() if tag in line and not line.split()[1].startswith("Z")]


def test_the_server_gets_the_request_and_is_stopped_after_the_run(write_case: CaseWriter, tmp_path: Path) -> None:
    tag = f"301.{os.getpid()}{len(str(tmp_path))}"
    directory = write_case(
        "served", CASE.format(id="served", command=f"[python3, sink.py, '{tag}']", pid_dir=tmp_path),
        {"sink.py": SINK, ".claude/settings.json": SETTINGS},
    )
    before = {p: p.read_bytes() for p in directory.rglob("*") if p.is_file()}
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.status == "pass", result.explain()
    assert int((tmp_path / "sink.pid").read_text()) > 0  # it ran (a pid in the servers' PID namespace)
    assert _running(f"sink.py {tag}") == []  # found by its command line: its pid out here is another
    # the port is written into the private copy only
    assert {p: p.read_bytes() for p in directory.rglob("*") if p.is_file()} == before


def test_a_server_that_prints_no_port_is_an_error_naming_the_field(write_case: CaseWriter) -> None:
    command = '[python3, -c, "import sys; sys.stderr.write(\'cannot bind\'); sys.exit(3)"]'
    directory = write_case("silent", CASE.format(id="silent", command=command, pid_dir=""))
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.status == "case-error" and result.fault is not None
    assert f"{directory / 'case.yaml'}: servers.sink: printed no port" in result.fault.message
    assert "cannot bind" in result.fault.message


def test_a_command_that_cannot_start_is_an_error_naming_the_field(write_case: CaseWriter) -> None:
    directory = write_case("missing", CASE.format(id="missing", command="[./no-such-server]", pid_dir=""))
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.status == "case-error" and result.fault is not None
    assert "servers.sink.command: cannot start" in result.fault.message


def test_a_placeholder_must_name_a_declared_server(write_case: CaseWriter) -> None:
    directory = write_case(
        "typo", CASE.format(id="typo", command="[python3, sink.py]", pid_dir=""),
        {".claude/settings.json": SETTINGS.replace("port:sink", "port:snik")},
    )
    with pytest.raises(CaseFormatError) as err:
        load_case(directory)
    assert err.value.path == str(directory / ".claude" / "settings.json")
    assert err.value.field == "{{port:snik}}"
    assert "names no server" in str(err.value)


def test_an_empty_command_is_a_format_error(write_case: CaseWriter) -> None:
    directory = write_case("empty", CASE.format(id="empty", command="[]", pid_dir=""))
    with pytest.raises(CaseFormatError) as err:
        load_case(directory)
    assert err.value.field == "servers.sink.command"


def test_the_picked_port_reads_as_its_placeholder(tmp_path: Path) -> None:
    norm = Normaliser(workdir=tmp_path / "w", home=tmp_path / "h", ports={"sink": 43803})
    text = "POST to http://127.0.0.1:43803/prompt and localhost:43803; not 127.0.0.1:438031 or :43803"
    assert norm.text(text) == (
        "POST to http://127.0.0.1:{{port:sink}}/prompt and localhost:{{port:sink}}; not 127.0.0.1:438031 or :43803"
    )


ORPHANING_SINK = """\
import json, os, subprocess, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

class Sink(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

pid_dir = os.environ["PID_DIR"]
with open(os.path.join(pid_dir, "server-env.json"), "w") as f:
    json.dump(dict(os.environ), f)
child = subprocess.Popen(["sleep", sys.argv[1]], start_new_session=True)  # outside the server's group
with open(os.path.join(pid_dir, "child.pid"), "w") as f:
    f.write(str(child.pid))
server = HTTPServer(("127.0.0.1", 0), Sink)
print(server.server_port, flush=True)
server.serve_forever()
"""


def test_a_server_sees_no_secret_and_leaves_no_child_behind(
    write_case: CaseWriter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC_HARNESS_TEST_SECRET", "s3cret")
    tag = f"300.{os.getpid()}{len(str(tmp_path))}"
    directory = write_case(
        "orphan", CASE.format(id="orphan", command=f"[python3, sink.py, '{tag}']", pid_dir=tmp_path),
        {"sink.py": ORPHANING_SINK, ".claude/settings.json": SETTINGS},
    )
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.transcript is not None  # the run got as far as a verdict (the sink writes no requests.txt)
    env = json.loads((tmp_path / "server-env.json").read_text())
    assert "CC_HARNESS_TEST_SECRET" not in env
    assert env[COOKIE] and env["PID_DIR"] == str(tmp_path)
    assert int((tmp_path / "child.pid").read_text()) > 0
    assert _running(f"sleep {tag}") == []


def test_a_server_child_without_the_cookie_is_killed_too(write_case: CaseWriter, tmp_path: Path) -> None:
    tag = f"300.{os.getpid()}{len(str(tmp_path))}7"
    cookieless = ORPHANING_SINK.replace(
        "start_new_session=True)", "start_new_session=True, env={'PATH': os.environ['PATH']})"
    )
    directory = write_case(
        "orphan", CASE.format(id="orphan", command=f"[python3, sink.py, '{tag}']", pid_dir=tmp_path),
        {"sink.py": cookieless, ".claude/settings.json": SETTINGS},
    )
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.transcript is not None
    assert int((tmp_path / "child.pid").read_text()) > 0
    assert _running(f"sleep {tag}") == [], "the child outlived the run"


@pytest.mark.parametrize("port", ["²", "9" * 5000])
def test_a_port_that_is_no_number_is_a_one_line_error(write_case: CaseWriter, port: str) -> None:
    command = f"[python3, -c, \"print('{port}', flush=True); import time; time.sleep(30)\"]"
    directory = write_case("odd", CASE.format(id="odd", command=command, pid_dir=""))
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.status == "case-error" and result.fault is not None, result
    assert f"{directory / 'case.yaml'}: servers.sink: printed" in result.fault.message
    assert "\n" not in result.fault.message.split("; a server prints")[0]
