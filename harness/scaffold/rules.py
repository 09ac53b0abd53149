"""Cases for a team's permission rules, for ``cc-harness init``: a call a deny or ask rule refuses.

A case is written only where the reference engine's reading of the rule is measured and the call is harmless
whatever the engine does, because the rule refuses it before anything runs:

- a Bash deny rule with a plain command prefix (``Bash(git push:*)``, ``Bash(git push *)``, ``Bash(git push)``):
  a call of that command (``Permission to use Bash with command git push has been denied.``);
- a Bash ask rule of the same forms: print mode cannot ask, so the call is refused, even in bypass mode;
- a Read or Edit deny rule for a folder (``Read(secrets/**)``, ``Edit(//etc/**)``): a Read, or an Edit, of a
  file in it (``File is in a directory that is denied by your permission settings.``);
- a ``WebFetch(domain:H)`` or ``WebFetch(domain:*.H)`` deny rule: a fetch of that host, refused before any
  request (``WebFetch denied access to domain:H.``).

Which message the call gets is the reference engine's own decision (``refengine.permissions.decide``), so
a form it does not model gets no case. A PreToolUse hook of the repository on the probe's tool may answer
first: it runs before a Bash rule is read (a team's guard hook on ``git push --force`` refused the call with its
own message before ``Bash(git push --force:*)`` did, claude 2.1.332), and its order against a WebFetch rule is
not measured, so there the case checks only that the call is refused. A Read or Edit folder rule is read in the
tool's input validation, before any hook (rule-path-deny-hooks).

Every other rule gets a ``no case:`` line with the reason; allow rules above all: a call a rule lets through
runs the team's command or tool for real.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.refengine import messages
from harness.refengine.config_model import PermissionLists
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookRule, matcher_hits
from harness.refengine.permission_request import Request
from harness.refengine.permission_rules import Rule, RuleSet, host_of
from harness.refengine.permissions import decide
from harness.refengine.profiles import Profile
from harness.scaffold.casefile import Planned, Report, case_file, make_case, notes, slug

#: A plain command: words of letters, digits and ``-_./=``, nothing the shell would read as more.
_PLAIN = re.compile(r"[\w./=-]+(?: [\w./=-]+)*")
#: A folder rule of the measured shapes: ``seg/**`` (the folder at any depth) or ``//abs/**``.
_FOLDER = re.compile(r"(//)?([\w.-]+(?:/[\w.-]+)*)/\*\*")
#: The file a path rule's probe names: never a file of the team's (the call is refused before it is touched).
_PROBE_FILE = "cc-harness-probe.txt"
#: Tools whose rules a PreToolUse hook may answer before (the folder rules of Read and Edit come before hooks).
_HOOKS_FIRST = frozenset({"Bash", "WebFetch"})
#: The case's own user settings for a WebFetch probe: the engine's domain preflight would reach the network.
_NO_PREFLIGHT = {"skipWebFetchPreflight": True}


@dataclass(frozen=True, kw_only=True)
class _Probe:
    """A call the rule refuses before it runs, and what the engine answers."""

    slug: str
    call: dict[str, Any]
    result: str | None
    """The engine's refusal; None where a PreToolUse hook answers first (the case checks the refusal only)."""
    says: str
    home: dict[str, Any] | None = None
    """Settings for the case's own HOME (``home/.claude/settings.json``), if the probe needs any."""


def pre_tool_hooked(hooks: Iterable[HookRule], profile: Profile) -> Callable[[str], bool]:
    """Whether a PreToolUse hook of ``hooks`` runs on a call of the tool named."""
    pre = [h for h in hooks if h.event == "PreToolUse"]
    return lambda tool: any(matcher_hits(h.matcher, tool, profile=profile, debug=lambda _line: None) for h in pre)


def plan(lists: PermissionLists, *, root: Path, cases: Path, report: Report,
         hooked: Callable[[str], bool] = lambda _tool: False) -> list[Planned]:
    """A case per deny or ask rule of a modelled form; a ``no case:`` line for every other rule. ``hooked`` says
    whether a PreToolUse hook runs on a tool: such a hook answers a Bash or WebFetch call before the rule."""
    rules = RuleSet.from_lists(allow=lists.allow, deny=lists.deny, ask=lists.ask)
    out: list[Planned] = []
    for kind, texts in (("allow", lists.allow), ("ask", lists.ask), ("deny", lists.deny)):
        for text in texts:
            probe = _why_not(kind, Rule.parse(text)) if kind == "allow" else _probe(kind, Rule.parse(text), rules, root)
            if isinstance(probe, str):
                report.skipped.append(f"permission rule {kind} {text}: {probe}")
                continue
            if probe.call["name"] in _HOOKS_FIRST and hooked(probe.call["name"]):
                probe = dataclasses.replace(probe, result=None)
            folder = cases / slug(f"rule-{kind}-{probe.slug}")
            out.append(case_file(folder, _case(kind, text, probe), root=root, what=f"permission rule {kind} {text}"))
            if probe.home is not None:
                out.append(Planned(path=folder / "home" / ".claude" / "settings.json",
                                   text=json.dumps(probe.home, indent=2) + "\n",
                                   what=f"user settings for the permission rule {kind} {text}"))
    return out


def _probe(kind: str, rule: Rule, rules: RuleSet, root: Path) -> _Probe | str:
    """The probe call for ``rule``, when the reference engine refuses it by this rule; else why not."""
    probe = _candidate(rule)
    if probe is None:
        return _why_not(kind, rule)
    tool_input = dict(probe.call["input"])
    if "file_path" in tool_input:
        tool_input["file_path"] = str(root / tool_input["file_path"])
    try:
        decision = decide(Request(tool=probe.call["name"], tool_input=tool_input, mode="bypass", workdir=root,
                                  rules=rules))
    except NotModelled as why:
        # the rule's own form is one init writes cases for, but another rule of the same settings is not
        # modelled: say which, so the team knows what keeps this rule without a case
        return (f"the reference engine cannot decide {probe.says} with these rules (not modelled: {why.feature});"
                " a case calls a tool the rule matches and expects the refusal (docs/your-setup.md)")
    if kind == "ask":
        # print mode cannot ask: the engine's refusal of an ask is the call's result
        if decision.behaviour == "ask":
            return dataclasses.replace(probe, result=decision.message)
    elif decision.behaviour == "deny" and decision.message == probe.result:
        return probe
    # another rule decides the call first, or the engine reads this one otherwise
    return (f"the reference engine's decision for {probe.says} is not this rule's {kind} but {decision.behaviour}"
            f" ({decision.message or 'no message'})")


def _candidate(rule: Rule) -> _Probe | None:
    spec = rule.specifier
    if spec is None:
        return None
    if rule.tool == "Bash":
        command = re.sub(r"(:\*| \*)$", "", spec)
        if not _PLAIN.fullmatch(command):
            return None
        call = {"name": "Bash", "input": {"command": command, "description": f"Run {command}"}}
        return _Probe(slug=command, call=call, result=messages.bash_denied_by_rule(command), says=command)
    if rule.tool in ("Read", "Edit"):
        found = _FOLDER.fullmatch(spec)
        if found is None:
            return None
        path = f"/{found.group(2)}/{_PROBE_FILE}" if found.group(1) else f"{found.group(2)}/{_PROBE_FILE}"
        tool_input: dict[str, Any] = {"file_path": path}
        if rule.tool == "Edit":
            tool_input |= {"old_string": "cc-harness", "new_string": "cc-harness-probe"}
        return _Probe(slug=f"{rule.tool}-{found.group(2)}".lower(), call={"name": rule.tool, "input": tool_input},
                      result=messages.path_denied(), says=f"{rule.tool} of {path}")
    if rule.tool == "WebFetch" and spec.startswith("domain:"):
        pattern = spec.removeprefix("domain:")
        host = f"cc-harness-probe.{pattern[2:]}" if pattern.startswith("*.") else pattern
        url = f"https://{host}/"
        if host_of(url) != host.lower():
            return None
        call = {"name": "WebFetch", "input": {"url": url, "prompt": "Summarise the page."}}
        return _Probe(slug=f"webfetch-{pattern.removeprefix('*.')}", call=call,
                      result=messages.webfetch_domain_denied(host.lower()), says=f"a fetch of {url}",
                      home=_NO_PREFLIGHT)
    return None


def _why_not(kind: str, rule: Rule) -> str:
    if kind == "allow":
        return ("init writes no allow case: the call the rule lets through would run the team's command or tool"
                " for real; a case calls it in run.permission_mode: default and expects its result"
                " (docs/your-setup.md)")
    forms = ("Bash rules with a plain command prefix" if kind == "ask" else
             "Bash rules with a plain command prefix, Read/Edit rules for a folder (dir/**, //abs/**) and"
             " WebFetch(domain:) rules")
    if rule.tool.startswith("mcp__"):
        return (f"an MCP rule's case needs the server's tool names and starts it; init writes {kind} cases for"
                f" {forms} only; cases/rule-mcp-server shows how to write one")
    return (f"init writes {kind} cases for {forms}, the forms whose reading the reference engine measures; a case"
            " calls a tool the rule matches and expects the refusal (docs/your-setup.md)")


def _case(kind: str, rule: str, probe: _Probe) -> dict[str, object]:
    expect = {"is_error": True} if probe.result is None else {"result": probe.result, "is_error": True}
    call = {**probe.call, "expect": expect}
    base: dict[str, Any] = {"project": "../.."}
    if probe.home is not None:
        base["home"] = "home"
    base["run"] = {"permission_mode": "bypass"}
    what = ("the engine refuses the call before it runs, with its own message, even with"
            " --dangerously-skip-permissions" if kind == "deny" else
            "print mode cannot ask, so the engine refuses the call before it runs, even with"
            " --dangerously-skip-permissions")
    if probe.home is not None:
        what += "; the case's HOME sets skipWebFetchPreflight, so no domain check reaches the network"
    if probe.result is None:
        what += (f"; a PreToolUse hook of the repository runs on {probe.call['name']} before the rule is read and may"
                 " refuse the call first with its own message, so the case checks the refusal, not its text")
    return make_case(
        f"The deny rule {rule} refuses {probe.says}, even in bypass mode" if kind == "deny" else
        f"The ask rule {rule}: {probe.says} is refused in print mode, even in bypass mode",
        base,
        f"Make this call: {probe.says}.",
        [{"call": call}, {"say": "It was refused."}],
        notes=notes(
            f"the settings' {kind} rule {rule} matches {probe.says}: {what}.",
            "Add the other calls the rule must refuse, and a contrast call it must let through.",
        ),
    )
