"""The permission modes acceptEdits, dontAsk and plan (``--permission-mode``) in print mode.

Each mode changes what the tool's own default-mode check answers (``Decision.by_tool``); what a deny, ask or
allow rule or a PreToolUse hook decided is measured apart (``_rule_decision``, ``hook_refusal``). The hook
payload's ``permission_mode`` names the mode (measured in the main thread and a subagent).
Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 with the scripted model's calls (cases/mode-*):

- acceptEdits lets a Write, an Edit or a NotebookEdit (of a notebook read first) inside the working copy
  through, and a Bash ``mkdir`` or ``touch`` of a path there or an output redirection to a file there (one
  simple command); every other call is answered as in default mode (a read or write outside the working copy,
  python3, compound commands, WebFetch, an MCP tool). Subagents inherit the mode.
- dontAsk refuses every call default mode would ask about, with its own text naming the tool.
- plan lets Read through, outside the working copy too, refuses a Write, Edit or NotebookEdit ("Cannot write
  to <path> while in plan mode.") and an MCP tool ("Cannot call <tool> while in plan mode."); a Bash command
  default mode asks about, WebFetch and Agent go to the auto-mode classifier (plan_classifier.py).
"""

from __future__ import annotations

from pathlib import Path

from harness.refengine import plan_classifier
from harness.refengine.bash_safety import PATH_PROGRAMS, split_parts
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import ALLOW, Decision, Request
from harness.refengine.profiles import Profile
from harness.refengine.tool_model import SPECS, inside, resolve
from harness.refengine.tools import READ_ONLY_TOOLS

#: The modes this module answers for; default and bypass are permissions.decide's own.
SESSION_MODES = frozenset({"acceptEdits", "dontAsk", "plan"})

_DONT_ASK_TEXT = (
    "Permission to use {tool} has been denied because Claude Code is running in don't ask mode. IMPORTANT: You "
    "*may* attempt to accomplish this action using other tools that might naturally be used to accomplish this "
    "goal, e.g. using head instead of cat. But you *should not* attempt to work around this denial in malicious "
    "ways, e.g. do not use your ability to run tests to execute non-test actions. You should only try to work "
    "around this restriction in reasonable ways that do not attempt to bypass the intent behind this denial. If "
    "you believe this capability is essential to complete the user's request, STOP and explain to the user what "
    "you were trying to do and why you need this permission. Let the user decide how to proceed."
)
#: Measured: a plan-mode run went on after 16 refusals (9 from the classifier) and stopped at the 17th with no
#: result; where the limit lies, and whether this engine's refusals count alike, is not.
_PLAN_REFUSALS_MEASURED = 8
#: mkdir and touch are measured in acceptEdits; rm, rmdir, mv and cp are not.
_ACCEPT_EDITS_PROGRAMS = frozenset({"mkdir", "touch"})


def adjust(decision: Decision, request: Request, *, refusals: int, classifier_refusals: int = 0,
           profile: Profile | None = None) -> Decision:
    """``decision`` (permissions.decide's, in default mode's terms) as ``request.mode`` answers it.
    ``refusals``: the prompt's refusals so far (plan mode stops a run after some, unmeasured where), of which
    the auto-mode classifier gave ``classifier_refusals`` (plan_classifier.py; needs ``profile``)."""
    mode = request.mode
    if mode not in SESSION_MODES:
        return decision
    if not decision.by_tool:
        return _rule_decision(decision, request)
    if mode == "acceptEdits":
        return _accept_edits(decision, request)
    if mode == "dontAsk":
        return decision if decision.behaviour == "allow" else Decision(
            behaviour="deny", message=_DONT_ASK_TEXT.format(tool=request.tool))
    return _plan(decision, request, refusals=refusals, classifier_refusals=classifier_refusals, profile=profile)


def _rule_decision(decision: Decision, request: Request) -> Decision:
    """A rule's or a hook's answer in acceptEdits or dontAsk (measured: mode-accept-edits-rules,
    mode-dont-ask-rules): allow rules, a PreToolUse hook's allow and a deny rule answer as in default mode; an
    ask rule is asked in acceptEdits and refused with the don't-ask text in dontAsk. In plan mode, and for a
    skill's ``allowed-tools`` grant, not measured."""
    mode = request.mode
    if mode == "plan":
        raise NotModelled(f"plan mode with a permission rule or hook decision that binds a {request.tool} call")
    if request.granted and decision.behaviour == "allow":
        raise NotModelled(f"{mode} mode with a skill's allowed-tools grant beside a {request.tool} call")
    if mode == "dontAsk" and decision.behaviour == "ask":
        return Decision(behaviour="deny", message=_DONT_ASK_TEXT.format(tool=request.tool))
    return decision


def _accept_edits(decision: Decision, request: Request) -> Decision:
    tool = request.tool
    if decision.behaviour == "allow":
        return decision
    if tool in ("Write", "Edit", "NotebookEdit"):  # NotebookEdit: notebook-edit-read-first-accept-edits
        path = resolve(str(request.tool_input[SPECS[tool].path_param or "file_path"]), workdir=request.workdir)
        return ALLOW if inside(path, request.workdir) else decision
    if tool == "Bash":
        return ALLOW if _edit_command(str(request.tool_input.get("command", "")), request.workdir) else decision
    return decision


def _edit_command(command: str, workdir: Path) -> bool:
    """Whether acceptEdits lets ``command`` run where default mode asks: one simple command that makes a
    folder or touches a file inside the working copy, or a read-only one that redirects its output to a file
    there. A command that is neither and writes no file is answered as in default mode (False)."""
    parts = split_parts(command)
    if parts is None:
        return False
    writing = [p for p in parts if p.redirect_targets or (p.words and p.words[0] in PATH_PROGRAMS)]
    if not writing:
        return False
    if len(parts) > 1:
        raise NotModelled("acceptEdits mode with a compound Bash command that writes a file")
    part = parts[0]
    program = part.words[0] if part.words else ""
    if program in PATH_PROGRAMS and program not in _ACCEPT_EDITS_PROGRAMS:
        raise NotModelled(f"acceptEdits mode with a Bash {program} command")
    targets = [*part.redirect_targets, *(w for w in part.words[1:] if program in PATH_PROGRAMS
                                         and not w.startswith("-"))]
    if not all(inside(resolve(t, workdir=workdir), workdir) for t in targets if not t.startswith("/dev/")):
        raise NotModelled("acceptEdits mode with a Bash command that writes outside the working copy")
    if part.redirect_targets and program in PATH_PROGRAMS:
        raise NotModelled("acceptEdits mode with a Bash path command that also redirects its output")
    return True


def _plan(decision: Decision, request: Request, *, refusals: int, classifier_refusals: int,
          profile: Profile | None) -> Decision:
    tool = request.tool
    if tool == "Read":
        return ALLOW
    if tool == "Skill" and decision.behaviour == "allow":
        return decision
    if tool == "Bash" and decision.behaviour == "allow":
        return decision  # a read-only command runs without the classifier
    if tool in ("Write", "Edit", "NotebookEdit") or tool.startswith("mcp__"):  # notebook-edit-read-first-plan
        if refusals >= _PLAN_REFUSALS_MEASURED:
            raise NotModelled(f"plan mode after {refusals} refusals (the engine stops a run after some)")
        if tool.startswith("mcp__"):
            return Decision(behaviour="deny", message=f"Cannot call {tool} while in plan mode.")
        path = resolve(str(request.tool_input[SPECS[tool].path_param or "file_path"]), workdir=request.workdir)
        return Decision(behaviour="deny", message=f"Cannot write to {path} while in plan mode.")
    if tool in READ_ONLY_TOOLS:
        raise NotModelled(f"plan mode with a {tool} call")
    if profile is not None and plan_classifier.goes_to_classifier(decision, request):
        if refusals >= _PLAN_REFUSALS_MEASURED:
            raise NotModelled(f"plan mode after {refusals} refusals (the engine stops a run after some)")
        return plan_classifier.refusal(decision, request, profile, refusals=refusals,
                                       classifier_refusals=classifier_refusals)
    raise NotModelled(f"plan mode with a {tool} call that default mode "
                      f"{'allows' if decision.behaviour == 'allow' else 'asks about'} (the auto-mode classifier "
                      "answers it)")


def hook_refusal(mode: str, tool: str, permission: str | None) -> None:
    """A PreToolUse hook's refusal of a ``tool`` call in ``mode``: its ``deny`` and ``ask`` refuse as in default
    mode in acceptEdits and dontAsk (measured: mode-accept-edits-rules, mode-dont-ask-rules); an exit 2 block, and
    any refusal in plan mode, are not measured."""
    if mode == "plan" or permission not in ("deny", "ask"):
        raise NotModelled(f"{mode} mode with a PreToolUse hook that refuses a {tool} call ({permission or 'block'})")
