"""opencode as an engine: ``opencode@VERSION``, a case run by ``opencode-ai@VERSION`` as ``opencode run``.

opencode reads skills from ``.claude/skills`` as they are, and speaks the Anthropic Messages API through its
Anthropic provider, so a case about skills and built-in tools runs on it offline against the same fake API
and scripted model. Two translations, each from one table:

- **the tools**, at the fake API (``vocabulary.py``): ``Bash`` is ``bash``, ``Read`` ``read{filePath}``,
  ``Edit`` ``edit{filePath, oldString, newString}``, ``Skill{skill}`` ``skill{name}``, ``Agent`` ``task``, …;
- **the command line and its output**: ``opencode run --format json PROMPT`` under a small driver
  (``opencode_driver.py``) that points opencode at the fake API and prints its events as stream-json, so the
  process is read and judged as claude's is.

opencode reads neither ``.claude/agents`` nor hooks nor ``.claude/settings.json``, and has permission rules
and memory files of its own: a case that relies on any of them, on several prompts, a permission mode other
than bypass or default, flags, user-level files, MCP servers, plugins, slash commands or scripted approvals, is
not-modelled for ``opencode@V`` with the reason. Never a silent pass.

Installed on demand with npm into the engine cache (``engines/opencode-VERSION``); it needs ``rg`` on PATH
for skills (without it opencode answers "ripgrep execution failed" and still exits 0).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from harness.apifaults import ApiFaultPlan
from harness.case import Case
from harness.engine_name import EngineName
from harness.engines import npm_install
from harness.engines.base import EngineRun, StepOutput
from harness.engines.engine_sessions import run_command_line
from harness.engines.stream_process import StepGroup
from harness.engines.vocabulary import Vocabulary, scripted_calls
from harness.errors import InstallError, NotModelled
from harness.scripted import ScriptedModel
from harness.versions import is_version

PACKAGE = "opencode-ai"
BINARY = Path("node_modules") / "opencode-linux-x64" / "bin" / "opencode"
#: How many times a case's time limit an opencode run gets: it starts a server and a title call first.
TIMEOUT_SCALE = 3

_PATH_KEY = {"file_path": "filePath"}
TOOLS = Vocabulary(
    tools={
        "Bash": "bash",
        "Read": "read",
        "Write": "write",
        "Edit": "edit",
        "Glob": "glob",
        "Grep": "grep",
        "Skill": "skill",
        "Agent": "task",
        "Task": "task",
        "WebFetch": "webfetch",
        "TodoWrite": "todowrite",
    },
    keys={
        "Read": _PATH_KEY,
        "Write": _PATH_KEY,
        "Edit": {**_PATH_KEY, "old_string": "oldString", "new_string": "newString", "replace_all": "replaceAll"},
        "Grep": {"glob": "include"},
        "Skill": {"skill": "name"},
    },
)

#: Claude Code's permission modes as opencode permission settings: bypass lets every tool run without asking;
#: default leaves opencode's own defaults (what a team running ``opencode run`` gets). The other modes have no
#: counterpart.
PERMISSIONS: dict[str, dict[str, str]] = {
    "bypass": {"edit": "allow", "bash": "allow", "webfetch": "allow", "external_directory": "allow"},
    "default": {},
}


@dataclass(frozen=True, kw_only=True)
class OpencodeEngine:
    engine_version: str
    api_faults: ApiFaultPlan = field(default_factory=ApiFaultPlan)

    @property
    def name(self) -> str:
        return EngineName("opencode", self.engine_version).text()

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run the case's one prompt on opencode; see Engine.run for the contract."""
        reasons = unexpressible(case, workdir, home)
        if reasons:
            raise NotModelled(f"{self.name}: {'; '.join(reasons)}", phase="run")
        binary = ensure_opencode(self.engine_version) / BINARY
        # opencode's first request is a title call without tools that quotes the prompt: the main thread is
        # the first request that offers tools (measured on 1.18.33)
        model.main_needs_tools = True
        driver = Path(__file__).with_name("opencode_driver.py")

        def argv(group: StepGroup, resume: str | None, debug_log: Path) -> list[str]:
            prompt = group[0][1].prompt
            return [sys.executable, str(driver), prompt, str(binary), "run", "--format", "json"]

        env = {
            **case.run.env,
            # opencode's state, cache and config folders in the run's HOME, never the caller's
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
            "CC_HARNESS_OPENCODE_PERMISSION": json.dumps(PERMISSIONS[case.run.permission_mode]),
        }
        planned = ApiFaultPlan.parse(case.run.api_faults)
        done = run_command_line(
            dataclasses.replace(
                case, run=dataclasses.replace(case.run, env=env, timeout=case.run.timeout * TIMEOUT_SCALE)
            ),
            engine=self.name,
            argv=argv,
            workdir=workdir,
            home=home,
            tmp=tmp,
            model=model,
            faults=ApiFaultPlan((*self.api_faults.faults, *planned.faults)),
            planned=planned,
            vocabulary=TOOLS,
        )
        return dataclasses.replace(done, steps=tuple(_in_claude_names(s) for s in done.steps))


def unexpressible(case: Case, workdir: Path, home: Path) -> list[str]:
    """Why the case cannot be said to opencode through this adapter (empty: it can)."""
    reasons: list[str] = []
    if len(case.steps) != 1:
        reasons.append(f"{len(case.steps)} prompts (the adapter runs one prompt per case)")
    if case.run.permission_mode not in PERMISSIONS:
        reasons.append(f"permission mode {case.run.permission_mode} (opencode has no counterpart)")
    if case.run.flags.given() or case.run.agent:
        reasons.append(f"command-line flags {', '.join(case.run.flags.given() or ['agent'])}")
    if case.sources is not None and not set(case.sources.caller + case.sources.callee) <= {"project", "builtin"}:
        reasons.append(f"definitions from {case.sources} (opencode is given project skills only)")
    if case.approvals:
        reasons.append("scripted approvals")
    if case.steps and case.steps[0].prompt.lstrip().startswith("/"):
        reasons.append("a slash command as the prompt")
    claude = workdir / ".claude"
    if claude.is_dir():
        others = sorted(p.name for p in claude.iterdir() if p.name != "skills")
        if others:
            reasons.append(f".claude/{', .claude/'.join(others)} (opencode reads only .claude/skills)")
    user_files = sorted(p.name for p in home.iterdir()) if home.is_dir() else []
    if user_files:
        reasons.append(f"user-level files ({', '.join(user_files)})")
    for path, why in (
        (".mcp.json", "MCP servers"),
        ("CLAUDE.md", "memory files"),
        ("CLAUDE.local.md", "memory files"),
        (".claude-plugin", "plugins"),
    ):
        if (workdir / path).exists() and why not in reasons:
            reasons.append(why)
    calls = scripted_calls(case)
    if case.run.permission_mode == "default" and "Bash" in calls:
        # measured on 1.18.33: with opencode's own permissions, `opencode run` asks before a bash call and
        # waits for an answer print mode cannot give, until the time limit kills it
        reasons.append("a Bash call in default mode (opencode run waits for an approval nobody can give)")
    unknown = sorted(name for name in calls if not TOOLS.knows(name))
    if unknown:
        reasons.append(f"calls to {', '.join(unknown)} (no opencode tool in the adapter's table)")
    return reasons


def _in_claude_names(step: StepOutput) -> StepOutput:
    return dataclasses.replace(step, init_tools=tuple(TOOLS.claude_name(t) for t in step.init_tools))


def _verify(staging: Path) -> dict[str, str]:
    if shutil.which("rg") is None:
        raise InstallError("opencode needs ripgrep (rg) on PATH to read skills: install it (Debian: ripgrep)")
    return {"opencode": npm_install.version_of([str(staging / BINARY), "--version"], PACKAGE)}


def ensure_opencode(version: str, *, timeout: float = 900) -> Path:
    """The install folder of opencode ``version`` (installed once per machine under a lock)."""
    if not is_version(version):
        raise InstallError(f"opencode@{version}: {version!r} is no version number (e.g. 1.18.33)")
    install = npm_install.NpmInstall(
        folder=f"opencode-{version}", specs=(f"{PACKAGE}@{version}",), verify=_verify, needs=(str(BINARY),)
    )
    return npm_install.ensure(install, timeout=timeout)
