"""The TypeScript Agent SDK engine: ``sdk-ts@VERSION``, a case run through ``query()`` of
``@anthropic-ai/claude-agent-sdk@VERSION`` and the claude binary that release bundles.

An SDK release ships its own claude binary in a platform package (0.3.333 bundles claude 2.1.333, a release
the CLI's users did not have yet), so a team on the SDK runs a binary of its own. This engine runs exactly
that: ``query()`` with no ``pathToClaudeCodeExecutable``. A small Node.js driver (``sdk_ts_driver.mjs``)
takes the command line the CLI adapter would run for the case, sets the SDK option a TypeScript user would
set for each flag, and prints every SDK message as a stream-json line; the harness then reads and judges
the process exactly as it does ``claude -p`` (the same fake Messages API, HOME seeding, environment,
containment and prompts on stdin). The system prompt is the ``claude_code`` preset and ``settingSources`` is
left to the SDK unless the case sets ``run.flags.setting_sources``: what a team writing
``query({prompt, options: {cwd}})`` gets.

Installed on demand with npm into the engine cache (``engines/sdk-ts-VERSION``): the SDK, its peer
dependencies and this platform's binary package, under a lock, in a staging folder renamed into place only
once the bundled binary answers ``--version``. The binary's claude version is recorded there; a run is judged
as that claude version (debug log, cli.js-era quirks).
"""

from __future__ import annotations

import platform
import shutil
import subprocess
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from harness.apifaults import ApiFaultPlan
from harness.case import Case
from harness.engine_name import EngineName
from harness.engines import npm_install
from harness.engines.approvals import not_scripted_here
from harness.engines.base import EngineRun
from harness.engines.claude import ClaudeEngine
from harness.engines.claude_launch import prepare
from harness.engines.engine_sessions import run_command_line
from harness.engines.stream_process import StepGroup
from harness.errors import InstallError
from harness.scripted import ScriptedModel
from harness.versions import is_version

PACKAGE = "@anthropic-ai/claude-agent-sdk"
#: The SDK's peer dependencies (its package.json), installed beside it as a TypeScript project would.
_PEERS = ("@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "zod@4")


@dataclass(frozen=True, kw_only=True)
class SdkTsEngine:
    engine_version: str
    #: Faults the fake Messages API serves instead of some scripted replies (apifaults.py).
    api_faults: ApiFaultPlan = field(default_factory=ApiFaultPlan)

    @property
    def name(self) -> EngineName:
        return EngineName("sdk-ts", self.engine_version)

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case`` through the SDK's query(); see Engine.run for the contract."""
        install, claude_version = _ensure_sdk(self.engine_version)
        prepare(case, model, engine=self.name, version=claude_version)
        not_scripted_here(case, self.name)
        node = shutil.which("node")
        if node is None:
            raise InstallError("node is not on PATH: the sdk-ts engine runs the TypeScript Agent SDK under Node.js")
        sdk = install / "node_modules" / PACKAGE / "sdk.mjs"
        cli = ClaudeEngine(engine_version=claude_version)

        def argv(group: StepGroup, resume: str | None, debug_log: Path) -> list[str]:
            # The CLI adapter's own command line after its binary: the driver maps each flag to the SDK.
            claude_args = cli._argv(Path("claude"), case, group, resume=resume, debug_log=debug_log, workdir=workdir)
            return [node, str(driver()), str(sdk), *claude_args[1:]]

        return run_command_line(
            case, engine=self.name, argv=argv, workdir=workdir, home=home, tmp=tmp, model=model, faults=self.api_faults
        )


def driver() -> Path:
    """The Node.js driver script, shipped inside the package."""
    return Path(str(resources.files("harness.engines").joinpath("sdk_ts_driver.mjs")))


def _platform_package() -> str:
    machine = {"x86_64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine(), platform.machine())
    return f"{PACKAGE}-linux-{machine}"


def _bundled_binary(install: Path) -> Path:
    return install / "node_modules" / _platform_package() / "claude"


def _installation(version: str) -> npm_install.NpmInstall:
    def verify(staging: Path) -> dict[str, Any]:
        binary = _bundled_binary(staging)
        claude = _claude_version(binary, f"{PACKAGE}@{version}")
        return {"size": binary.stat().st_size, "claude": claude}

    def whole(final: Path, record: dict[str, Any]) -> bool:
        """The bundled binary still there with its recorded size, and a claude version recorded."""
        try:
            size = _bundled_binary(final).stat().st_size
        except OSError:
            return False
        return record.get("size") == size and isinstance(record.get("claude"), str)

    return npm_install.NpmInstall(
        folder=f"sdk-ts-{version}", specs=(f"{PACKAGE}@{version}", *_PEERS), verify=verify, whole=whole
    )


def _ensure_sdk(version: str, *, timeout: float = 900) -> tuple[Path, str]:
    """The install folder of SDK ``version`` and the claude version its bundled binary reports (installed
    once per machine under a lock)."""
    if not is_version(version):
        raise InstallError(f"sdk-ts@{version}: {version!r} is no version number (e.g. 0.3.333)")
    installation = _installation(version)
    final = npm_install.ensure(installation, timeout=timeout)
    record = npm_install.recorded(final, installation)
    if record is None:  # removed since it was checked in this process
        raise InstallError(f"sdk-ts@{version}: the install at {final} is no longer whole; run again to reinstall")
    return final, str(record["claude"])


def _claude_version(binary: Path, spec: str) -> str:
    """``2.1.333`` from the bundled binary's ``--version`` (``2.1.333 (Claude Code)``)."""
    if not binary.is_file():
        raise InstallError(f"{spec} installed, but it bundles no binary for this platform at {binary}")
    try:
        proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallError(f"{binary} --version cannot run: {exc}") from None
    said = proc.stdout.split()
    if proc.returncode != 0 or not said or not is_version(said[0]):
        raise InstallError(f"{binary} --version printed {proc.stdout.strip()[:200]!r} (exit {proc.returncode})")
    return said[0]
