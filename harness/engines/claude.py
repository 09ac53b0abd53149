"""The real engine: ``claude@VERSION`` run offline against the fake Messages API.

Each case runs in its private working copy with a fresh HOME seeded as the case asks (onboarding done, folder trust
accepted or not), non-essential traffic off, every process under a timeout (claude_launch.py). Steps are grouped
into processes (engine_sessions.py), each run to its end (stream_process.py) and judged once it has stopped
(process_end.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from harness.apifaults import ApiFaultPlan
from harness.case import Case
from harness.engine_name import EngineName
from harness.engines.approvals import ApprovalsTool
from harness.engines.base import EngineRun
from harness.engines.claude_launch import flag_args, prepare, wants_debug_file
from harness.engines.engine_sessions import run_command_line
from harness.engines.install import ensure_installed
from harness.engines.stream_process import StepGroup, prompt_on_stdin
from harness.scripted import ScriptedModel


@dataclass(frozen=True, kw_only=True)
class ClaudeEngine:
    engine_version: str
    #: argv prefix the engine runs under, e.g. ``("strace", "-f", "-o", LOG)``; empty for none.
    wrapper: tuple[str, ...] = ()
    #: Faults the fake Messages API serves instead of some scripted replies (apifaults.py).
    api_faults: ApiFaultPlan = field(default_factory=ApiFaultPlan)

    @property
    def name(self) -> EngineName:
        return EngineName.claude(self.engine_version)

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case`` on the real binary; see Engine.run for the contract."""
        prepare(case, model, engine=self.name, version=self.engine_version)
        binary = ensure_installed(self.engine_version)
        approvals = ApprovalsTool.for_case(case, tmp)

        def argv(group: StepGroup, resume: str | None, debug_log: Path) -> list[str]:
            extra = approvals.argv() if approvals is not None else []
            return self._argv(binary, case, group, resume=resume, debug_log=debug_log, workdir=workdir) + extra

        planned = ApiFaultPlan.parse(case.run.api_faults)
        faults = ApiFaultPlan((*self.api_faults.faults, *planned.faults))
        done = run_command_line(
            case, engine=self.name, argv=argv, workdir=workdir, home=home, tmp=tmp, model=model, faults=faults,
            planned=planned,
        )
        return dataclasses.replace(done, approvals=approvals.asked()) if approvals is not None else done

    def _argv(
        self,
        binary: Path,
        case: Case,
        group: StepGroup,
        *,
        resume: str | None,
        debug_log: Path,
        workdir: Path,
    ) -> list[str]:
        argv = [*self.wrapper, str(binary), "-p"]
        if len(group) == 1:
            if not prompt_on_stdin(group):
                argv.append(group[0][1].prompt)
        else:
            argv += ["--input-format", "stream-json"]
        argv += ["--output-format", "stream-json", "--verbose"]
        if wants_debug_file(case, self.engine_version):
            argv += ["--debug-file", str(debug_log)]
        if case.run.permission_mode == "bypass":
            argv.append("--dangerously-skip-permissions")
        elif case.run.permission_mode != "default":
            argv += ["--permission-mode", case.run.permission_mode]
        if case.run.agent:
            argv += ["--agent", case.run.agent]
        argv += flag_args(case.run.flags, workdir=workdir)
        if resume is not None:
            argv += ["--resume", resume]
        return argv
