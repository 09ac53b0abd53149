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

import json
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness.case import Case
from harness.engines import npm_install, translated
from harness.engines.stream_process import StepGroup
from harness.engines.translated import AgentTables, Launch, TranslatedEngine
from harness.engines.vocabulary import Vocabulary, scripted_calls
from harness.errors import InstallError
from harness.scripted import ScriptedModel
from harness.versions import is_version

PACKAGE = "opencode-ai"
_BINARY = Path("node_modules") / "opencode-linux-x64" / "bin" / "opencode"

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
_PERMISSIONS: dict[str, dict[str, str]] = {
    "bypass": {"edit": "allow", "bash": "allow", "webfetch": "allow", "external_directory": "allow"},
    "default": {},
}


def unexpressible(case: Case, workdir: Path, home: Path) -> list[str]:
    """Why the case cannot be said to opencode through this adapter (empty: it can)."""
    reasons = translated.opening_reasons(case, _TABLES)
    claude = workdir / ".claude"
    if claude.is_dir():
        others = sorted(p.name for p in claude.iterdir() if p.name != "skills")
        if others:
            reasons.append(f".claude/{', .claude/'.join(others)} (opencode reads only .claude/skills)")
    reasons += translated.fixture_reasons(workdir, home, reasons, _TABLES)
    if case.run.permission_mode == "default" and "Bash" in scripted_calls(case):
        # measured on 1.18.33: with opencode's own permissions, `opencode run` asks before a bash call and
        # waits for an answer print mode cannot give, until the time limit kills it
        reasons.append("a Bash call in default mode (opencode run waits for an approval nobody can give)")
    return reasons + translated.unknown_calls(case, _TABLES)


@contextmanager
def _launch(version: str, case: Case, *, workdir: Path, home: Path, model: ScriptedModel) -> Iterator[Launch]:
    """See Launcher."""
    binary = _ensure_opencode(version) / _BINARY
    # opencode's first request is a title call without tools that quotes the prompt: the main thread is
    # the first request that offers tools (measured on 1.18.33)
    model.main_needs_tools = True
    driver = Path(__file__).with_name("opencode_driver.py")

    def argv(group: StepGroup, resume: str | None, debug_log: Path) -> list[str]:
        prompt = group[0][1].prompt
        return [sys.executable, str(driver), prompt, str(binary), "run", "--format", "json"]

    yield Launch(
        argv,
        {
            # opencode's state, cache and config folders in the run's HOME, never the caller's
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
            "CC_HARNESS_OPENCODE_PERMISSION": json.dumps(_PERMISSIONS[case.run.permission_mode]),
        },
    )


_TABLES = AgentTables(
    family="opencode",
    agent="opencode",
    unexpressible=unexpressible,
    launch=_launch,
    vocabulary=TOOLS,
    modes=_PERMISSIONS,
    sources=frozenset({"project", "builtin"}),
    why_mode="opencode has no counterpart",
    why_sources="opencode is given project skills only",
    unsaid=translated.unsaid(),
)


class OpencodeEngine(TranslatedEngine):
    tables = _TABLES


def _verify(staging: Path) -> dict[str, str]:
    if shutil.which("rg") is None:
        raise InstallError("opencode needs ripgrep (rg) on PATH to read skills: install it (Debian: ripgrep)")
    return {"opencode": npm_install.version_of([str(staging / _BINARY), "--version"], PACKAGE)}


def _ensure_opencode(version: str, *, timeout: float = 900) -> Path:
    """The install folder of opencode ``version`` (installed once per machine under a lock)."""
    if not is_version(version):
        raise InstallError(f"opencode@{version}: {version!r} is no version number (e.g. 1.18.33)")
    install = npm_install.NpmInstall(
        folder=f"opencode-{version}", specs=(f"{PACKAGE}@{version}",), verify=_verify, needs=(str(_BINARY),)
    )
    return npm_install.ensure(install, timeout=timeout)
