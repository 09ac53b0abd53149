"""The TypeScript Agent SDK engine (``sdk-ts@V``): its driver turns the CLI adapter's command line into the SDK
options a TypeScript user would set, and committed cases of each part run through ``query()`` and the claude
binary the SDK release bundles.

The driver is tested against a stand-in SDK module that echoes what ``query()`` received (Node.js only); the
cases run on the real SDK, installed from npm into the engine cache on first use.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.engines.sdk_ts import driver
from tests.conftest import run_committed_cases

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="the sdk-ts engine runs under Node.js")

#: The SDK release the suite runs (it bundles claude 2.1.333).
SDK_TS = "0.3.333"

STAND_IN = """\
export async function* query({ prompt, options }) {
  let prompts = prompt;
  if (typeof prompt !== "string") {
    prompts = [];
    for await (const message of prompt) prompts.push(message);
  }
  const seen = { ...options, env: Object.keys(options.env).includes("PATH"), stderr: typeof options.stderr };
  yield { type: "result", result: JSON.stringify({ prompts, options: seen }), is_error: false };
}
"""


def _drive(tmp_path: Path, args: list[str], stdin: str = "") -> dict[str, object]:
    sdk = tmp_path / "sdk.mjs"
    sdk.write_text(STAND_IN, encoding="utf-8")
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, str(driver()), str(sdk), *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    result: dict[str, object] = json.loads(json.loads(line)["result"])
    return result


def test_each_cli_flag_becomes_the_sdk_option_a_typescript_user_would_set(tmp_path: Path) -> None:
    seen = _drive(
        tmp_path,
        [
            "-p", "Run the skill.",
            "--output-format", "stream-json", "--verbose",
            "--dangerously-skip-permissions",
            "--allowedTools", "Bash(git:*)", "--allowedTools", "Read",
            "--disallowedTools", "Write",
            "--agents", '{"probe": {"description": "d", "prompt": "p"}}',
            "--setting-sources", "project,local",
            "--plugin-dir", "/w/plugins/team",
            "--add-dir", "/w/other",
            "--include-hook-events",
            "--agent", "probe",
            "--debug-file", "/t/debug.log",
            "--settings", "/w/extra.json",
            "--resume", "session-1",
        ],
    )  # fmt: skip
    assert seen["prompts"] == "Run the skill."
    assert seen["options"] == {
        "systemPrompt": {"type": "preset", "preset": "claude_code"},
        "env": True,
        "extraArgs": {"agent": "probe", "debug-file": "/t/debug.log", "settings": "/w/extra.json"},
        "stderr": "function",
        "permissionMode": "bypassPermissions",
        "allowDangerouslySkipPermissions": True,
        "allowedTools": ["Bash(git:*)", "Read"],
        "disallowedTools": ["Write"],
        "agents": {"probe": {"description": "d", "prompt": "p"}},
        "settingSources": ["project", "local"],
        "plugins": [{"type": "local", "path": "/w/plugins/team"}],
        "additionalDirectories": ["/w/other"],
        "includeHookEvents": True,
        "resume": "session-1",
    }


def test_prompts_on_stdin_are_the_sdks_streaming_input_one_user_message_each(tmp_path: Path) -> None:
    lines = [{"type": "user", "message": {"role": "user", "content": text}} for text in ("first", "second")]
    seen = _drive(
        tmp_path,
        ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--permission-mode", "plan"],
        stdin="".join(json.dumps(line) + "\n" for line in lines),
    )
    assert seen["prompts"] == [
        {"type": "user", "message": line["message"], "parent_tool_use_id": None, "session_id": ""} for line in lines
    ]
    assert isinstance(seen["options"], dict) and seen["options"]["permissionMode"] == "plan"


def test_setup_flags_reach_the_bundled_binary_as_bare_flags(tmp_path: Path) -> None:
    # --init and --maintenance have no SDK option and take no value: an extraArgs key set to null is passed to the
    # binary as the bare flag (the driver used to refuse them, so a Setup hook case crashed on sdk-ts).
    for flag in ("--init", "--maintenance"):
        seen = _drive(tmp_path, ["-p", "x", "--output-format", "stream-json", "--verbose", flag])
        assert isinstance(seen["options"], dict) and seen["options"]["extraArgs"] == {flag[2:]: None}


def test_a_flag_with_no_sdk_option_is_refused_not_dropped(tmp_path: Path) -> None:
    sdk = tmp_path / "sdk.mjs"
    sdk.write_text(STAND_IN, encoding="utf-8")
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, str(driver()), str(sdk), "-p", "x", "--model", "opus"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "no SDK option for the claude argument --model" in done.stderr


#: One committed case per part, each passing (or a listed known difference) on the bundled binary.
ONE_PER_PART = [
    "skill-tool-allowed-tools",
    "subagent-tool-inherit",
    "tool-hook-pretooluse-deny",
    "hook-tool-mcp-tool",
]


@pytest.mark.xdist_group("sdk-ts")
def test_committed_cases_of_each_part_run_through_the_sdk_and_its_bundled_binary(tmp_path: Path) -> None:
    run_committed_cases(f"sdk-ts@{SDK_TS}", ONE_PER_PART, tmp_path / "run.jsonl")


def test_a_prompt_too_long_for_an_argument_comes_on_stdin_as_plain_text(tmp_path: Path) -> None:
    long_prompt = "x" * 200_000  # over stream_process._ARGUMENT_PROMPT_BYTES: the CLI adapter writes it to stdin
    seen = _drive(tmp_path, ["-p", "--output-format", "stream-json", "--verbose"], stdin=long_prompt)
    assert seen["prompts"] == long_prompt
