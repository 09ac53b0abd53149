"""Valid random cases from a grammar of what the engine reads, as Hypothesis strategies.

A **scenario** is a whole case: the files of a `.claude/` fixture (skills, agents, settings hooks,
permissions and ``env`` at the user, project or local level, memory files, an MCP server, files for the
tools' edge cases), the run's options (trust, permission mode), one to three prompts, and the scripted
model's turns, including the contexts the turns open (each subagent task, each forked skill). Everything
is drawn from the small vocabularies of ``vocabulary.py``, so that shrinking gives short cases a person can
read, and every name a turn uses is one the fixture may define (or, on purpose, one it does not).

The scenario's parts and the case they make are in ``scenario.py``. Hypothesis draws and shrinks; the
explorer (``explorer.py``) runs each scenario on two engines.
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.explore.scenario import Agent, Call, Hook, Rule, Scenario, Skill, Step
from harness.explore.surface_vocabulary import HANDLER_TYPES, SETTING_VALUES
from harness.explore.vocabulary import (
    AGENT_EXTRA,
    AGENT_NAMES,
    CALL_WEIGHTS,
    HANDLER_OPTIONS,
    HOOK_OUTPUTS,
    LEVELS,
    MATCHERS,
    MEMORY,
    MODES,
    OTHER_EVENTS,
    OTHER_MATCHERS,
    RULES,
    SKILL_EXTRA,
    SKILL_NAMES,
    TOOL_CALLS,
    TOOL_EVENTS,
    output_kinds,
    surface,
    type_options,
)

_TOOL_LISTS: tuple[tuple[str, ...] | None, ...] = (None, ("Read",), ("Read", "Bash"), ("Bash", "Agent"), ("Skill",))


_levels = st.sampled_from(("project", "project", "user"))
_settings_levels = st.sampled_from(LEVELS)


def _some(keys: tuple[str, ...], *, one_in: int = 5) -> st.SearchStrategy[tuple[str, ...]]:
    """None of ``keys`` but about once in ``one_in`` draws, then one or two of them: each drawn case reaches
    a few of the surface's rarer elements, not all at once, so a case that touches one the reference engine
    does not model (it answers not-modelled) does not hide the rest of the grammar."""
    some = st.lists(st.sampled_from(keys), unique=True, min_size=1, max_size=2).map(tuple)
    # sampled_from, not integers: Hypothesis draws an integer range's ends far more often than its middle
    return st.sampled_from((False,) * (one_in - 1) + (True,)).flatmap(lambda hit: some if hit else st.just(()))


@st.composite
def _skills(draw: st.DrawFn) -> tuple[Skill, ...]:
    names = draw(st.lists(st.sampled_from(SKILL_NAMES), unique=True, max_size=2))
    return tuple(
        Skill(
            name=name,
            description=draw(st.booleans()),
            fork=draw(st.booleans()),
            agent=draw(st.sampled_from((None, None, "Explore", *AGENT_NAMES, "nosuch"))),
            allowed_tools=draw(st.sampled_from((None, None, "Read", "Bash", "Bash(echo *)", "Edit(src/**)"))),
            disallowed_tools=draw(st.sampled_from((None, None, "Bash"))),
            disable_model_invocation=draw(st.booleans()),
            hook=draw(st.booleans()),
            level=draw(_levels),
            extra=draw(_some(tuple(SKILL_EXTRA), one_in=6)),
        )
        for name in names
    )


@st.composite
def _agents(draw: st.DrawFn) -> tuple[Agent, ...]:
    names = draw(st.lists(st.sampled_from(AGENT_NAMES), unique=True, max_size=2))
    return tuple(
        Agent(
            name=name,
            tools=draw(st.sampled_from(_TOOL_LISTS)),
            disallowed_tools=draw(st.sampled_from((None, None, ("Bash",)))),
            skills=draw(st.sampled_from((None, None, ("alpha",)))),
            hook=draw(st.booleans()),
            level=draw(_levels),
            extra=draw(_some(tuple(AGENT_EXTRA), one_in=6)),
        )
        for name in names
    )


@st.composite
def _hooks(draw: st.DrawFn) -> tuple[Hook, ...]:
    count = draw(st.integers(min_value=0, max_value=3))
    out = []
    for index in range(count):
        # the events a team's setup uses first most of the time, any event of the surface about one hook in four
        whole = draw(st.sampled_from((False, False, False, True)))
        event = draw(st.sampled_from(surface("hook-event") if whole else (*TOOL_EVENTS[:2], *TOOL_EVENTS,
                                                                           *OTHER_EVENTS)))
        matcher: str | None
        if event in TOOL_EVENTS:
            matcher = draw(st.sampled_from(MATCHERS))
        else:
            matcher = draw(st.sampled_from(OTHER_MATCHERS.get(event, (None, "*"))))
        # the named answers most of the time, one output field of the surface about one hook in four
        fields = output_kinds(event)
        answer = draw(st.sampled_from((HOOK_OUTPUTS,) * 3 + (fields or HOOK_OUTPUTS,)))
        # a command most of the time, each other handler type of the surface about one hook in nine
        handler = draw(st.sampled_from(("command",) * 6 + tuple(HANDLER_TYPES)))
        options = tuple(HANDLER_OPTIONS) if handler == "command" else type_options(handler)
        out.append(
            Hook(
                event=event,
                matcher=matcher,
                output=draw(st.sampled_from(answer)),
                level=draw(_settings_levels),
                index=index,
                options=draw(_some(options)),
                handler=handler,
            )
        )
    return tuple(out)


@st.composite
def _rules(draw: st.DrawFn) -> tuple[Rule, ...]:
    drawn = draw(st.lists(st.tuples(st.sampled_from(RULES), st.sampled_from(("allow", "allow", "deny", "ask")),
                                    _settings_levels), max_size=3, unique_by=lambda r: r[0]))
    return tuple(Rule(text=text, kind=kind, level=level) for text, kind, level in drawn)


_KINDS = tuple(kind for kind in TOOL_CALLS for _ in range(CALL_WEIGHTS.get(kind, 1)))


def _call(draw: st.DrawFn, n: int) -> Call:
    kind = draw(st.sampled_from(("builtin", "builtin", "builtin", "Skill", "Agent")))
    if kind == "Skill":
        name = draw(st.sampled_from((*SKILL_NAMES, "nosuch")))
        body = f"SKILL-{name.upper()}-BODY"
        return Call(tool="Skill", input={"skill": name}, context=(f"fork-{name}", body))
    if kind == "Agent":
        agent = draw(st.sampled_from((*AGENT_NAMES, "general-purpose", "nosuch")))
        task = f"TASK-{n}: run echo SUB and report."
        return Call(
            tool="Agent",
            input={"description": f"task {n}", "prompt": task, "subagent_type": agent, "run_in_background": False},
            context=(f"task-{n}", f"TASK-{n}:"),
        )
    tool, template = TOOL_CALLS[draw(st.sampled_from(_KINDS))]
    return Call(tool=tool, input={k: v.format(n=n) if isinstance(v, str) else v for k, v in template.items()})


@st.composite
def _steps(draw: st.DrawFn) -> tuple[Step, ...]:
    count = draw(st.integers(min_value=1, max_value=3))
    out = []
    n = 0
    for i in range(count):
        calls = []
        for _ in range(draw(st.integers(min_value=0, max_value=3))):
            n += 1
            calls.append(_call(draw, n))
        session = "new" if i == 0 else draw(st.sampled_from(("same", "resume", "new")))
        out.append(Step(session=session, calls=tuple(calls)))
    return tuple(out)


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    return Scenario(
        skills=draw(_skills()),
        agents=draw(_agents()),
        hooks=draw(_hooks()),
        rules=draw(_rules()),
        trusted=draw(st.booleans()),
        mode=draw(st.sampled_from(MODES)),
        steps=draw(_steps()),
        subagent_calls_bash=draw(st.booleans()),
        env=draw(_some(("user", "project", "local"), one_in=8)),
        memory=draw(_some(tuple(MEMORY), one_in=8)),
        ignore_files=draw(st.booleans()),
        mcp=draw(st.sampled_from((False, False, False, True))),
        settings=draw(_some(tuple(f"{level}:{key}" for key in SETTING_VALUES for level in ("project", "user",
                                                                                           "local")), one_in=6)),
    )
