"""Plan mode's calls that go to the auto-mode classifier, when the case scripts no classifier answer.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 with the scripted model's calls (mode-plan-classifier,
mode-plan-classifier-limit, mode-plan-classifier-hooks): in plan mode an Agent call (whatever its type, a
missing one too), a WebFetch call default mode asks about and a Bash command default mode asks about (a program
it does not know, a shell variable, a compound command) go to the classifier after the PreToolUse hooks ran.
Up to 2.1.278 the classifier is a request to the Messages API; the fake API's unscripted answer (``ok``) cannot
be read, and the call is refused "Auto mode could not evaluate this action ..."; from the third such call of a
prompt on, the classifier is skipped and the call is refused as default mode refuses it (an Agent call:
"Claude requested permissions to use Agent ..."). 2.1.332 asks no classifier and refuses every such call
"Auto mode is unavailable ..., so <tool> was not run. ...". No PostToolUse or PostToolUseFailure hook fires.

Not modelled: a case that scripts a classifier answer (side_calls: the reference engine abstains on those),
a WebFetch default mode allows, the versions between 2.1.278 and 2.1.332, and up to 2.1.278 a classifier call
after refusals of other kinds in the same prompt (whether those count toward the three is unmeasured).
"""

from __future__ import annotations

from harness.refengine.errors import NotModelled
from harness.refengine.messages import permission_not_granted
from harness.refengine.permission_request import Decision, Request
from harness.refengine.profiles import Profile


def goes_to_classifier(decision: Decision, request: Request) -> bool:
    """Whether plan mode sends this call (default mode's ``decision``) to the classifier, as measured."""
    tool = request.tool
    return tool == "Agent" or (tool in ("Bash", "WebFetch") and decision.behaviour == "ask")


def refusal(decision: Decision, request: Request, profile: Profile, *, refusals: int,
            classifier_refusals: int) -> Decision:
    """The refusal of a call ``goes_to_classifier`` chose. ``refusals``: the prompt's refusals so far, of every
    kind; ``classifier_refusals``: those the classifier gave."""
    text = profile.plan_classifier_refusal
    if text is None:
        raise NotModelled(f"plan mode with a {request.tool} call the auto-mode classifier answers, on a version "
                          "between 2.1.278 and 2.1.332 (measured on both)")
    limit = profile.plan_classifier_fallback_after
    if limit is None:
        return Decision(behaviour="deny", message=text.format(tool=request.tool), by_classifier=True)
    if classifier_refusals >= limit:
        message = decision.message if decision.behaviour == "ask" else permission_not_granted(request.tool)
        return Decision(behaviour="deny", message=message)
    if refusals > classifier_refusals:
        raise NotModelled("plan mode with a call the auto-mode classifier answers after a refusal of another kind "
                          "in the same prompt (whether it counts toward the classifier's limit is unmeasured)")
    return Decision(behaviour="deny", message=text.format(tool=request.tool), by_classifier=True)
