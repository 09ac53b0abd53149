"""The engine families by name: how to build an adapter, whether a version must be installed, how to show it.

A family is registered once (``_register``) and looked up by the family of an ``EngineName``; nothing
else in the harness chooses an adapter by comparing family names. The built-in families are
``reference`` (the executable spec, in process), ``claude`` (the real binary) and ``sdk`` (the real
binary under the Agent SDK); a new one (e.g. another agent engine) registers here.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass

from harness.engine_name import EngineName
from harness.engines.base import Engine
from harness.engines.paths import PACKAGE as CLAUDE_PACKAGE
from harness.errors import UsageError
from harness.versions import version_key

#: Builds the adapter for one engine name: (name, the version for a name without one, fault plan text).
Factory = Callable[[EngineName, str | None, str | None], Engine]


@dataclass(frozen=True, kw_only=True)
class Family:
    name: str
    build: Factory
    #: Whether a name of this family must carry a version (``claude@V``) or may go without (``reference``).
    needs_version: bool
    #: Whether the family's version is a claude release installed from npm into the engine cache.
    installs: bool
    #: Where its engines come in a report's columns: lower first (reference, then claude, then the rest).
    rank: int
    #: The npm package its versions are installed from, for ``check FAMILY@latest`` (None: not from npm, and
    #: ``check`` has no such family).
    package: str | None = None

    def forms(self) -> list[str]:
        """How a user names an engine of this family, for messages."""
        return [f"{self.name}@VERSION"] if self.needs_version else [self.name, f"{self.name}@VERSION"]


_FAMILIES: dict[str, Family] = {}


def _register(family: Family) -> None:
    _FAMILIES[family.name] = family


def names() -> list[str]:
    return list(_FAMILIES)


def named(family: str) -> Family | None:
    """The registered family called ``family`` (None: there is none)."""
    return _FAMILIES.get(family)


def family_of(name: EngineName) -> Family:
    """The registered family of ``name``, checked to fit it; a one-line UsageError otherwise."""
    family = _FAMILIES.get(name.family)
    if family is None or (family.needs_version and name.version is None):
        close = difflib.get_close_matches(name.family, list(_FAMILIES), n=1)
        hint = f" (did you mean {EngineName(close[0], name.version)}?)" if close and close[0] != name.family else ""
        forms = [form for f in _FAMILIES.values() for form in f.forms()]
        raise UsageError(f"unknown engine {name.text()!r}{hint}: use {', '.join(forms)} or pinned")
    return family


def _rank(family: str) -> int:
    """A family's place among report columns (an unregistered one, read from an old results file, last)."""
    known = _FAMILIES.get(family)
    return known.rank if known else max((f.rank for f in _FAMILIES.values()), default=0) + 1


def engine_key(name: EngineName) -> tuple[int, tuple[int, ...], str]:
    """An engine's place among report columns: reference engines first, then claude versions oldest to newest
    (the families' registered order, each family's versions in release order)."""
    return (_rank(name.family), version_key(name.version) if name.version else (), name.text())


def _reference(name: EngineName, default_version: str | None, api_faults: str | None) -> Engine:
    if api_faults:
        raise UsageError("--inject-api-fault: the reference engine has no Messages API to fault; use claude@V")
    from harness.engines.reference import ReferenceEngine

    return ReferenceEngine(version=name.version, default_version=default_version)


def _claude(name: EngineName, default_version: str | None, api_faults: str | None) -> Engine:
    from harness.apifaults import ApiFaultPlan
    from harness.engines.claude import ClaudeEngine

    assert name.version is not None  # needs_version
    return ClaudeEngine(engine_version=name.version, api_faults=ApiFaultPlan.parse(api_faults or ""))


def _sdk(name: EngineName, default_version: str | None, api_faults: str | None) -> Engine:
    from harness.apifaults import ApiFaultPlan
    from harness.engines.sdk import SdkEngine

    assert name.version is not None  # needs_version
    return SdkEngine(engine_version=name.version, api_faults=ApiFaultPlan.parse(api_faults or ""))


def _sdk_ts(name: EngineName, default_version: str | None, api_faults: str | None) -> Engine:
    from harness.apifaults import ApiFaultPlan
    from harness.engines.sdk_ts import SdkTsEngine

    assert name.version is not None  # needs_version
    return SdkTsEngine(engine_version=name.version, api_faults=ApiFaultPlan.parse(api_faults or ""))


def _qwen(name: EngineName, default_version: str | None, api_faults: str | None) -> Engine:
    from harness.apifaults import ApiFaultPlan
    from harness.engines.qwen import QwenEngine

    assert name.version is not None  # needs_version
    return QwenEngine(engine_version=name.version, api_faults=ApiFaultPlan.parse(api_faults or ""))


def _opencode(name: EngineName, default_version: str | None, api_faults: str | None) -> Engine:
    from harness.apifaults import ApiFaultPlan
    from harness.engines.opencode import OpencodeEngine

    assert name.version is not None  # needs_version
    return OpencodeEngine(engine_version=name.version, api_faults=ApiFaultPlan.parse(api_faults or ""))


def _codex(name: EngineName, default_version: str | None, api_faults: str | None) -> Engine:
    from harness.apifaults import ApiFaultPlan
    from harness.engines.codex import CodexEngine

    assert name.version is not None  # needs_version
    return CodexEngine(engine_version=name.version, api_faults=ApiFaultPlan.parse(api_faults or ""))


_register(Family(name="reference", build=_reference, needs_version=False, installs=False, rank=0))
_register(Family(name="claude", build=_claude, needs_version=True, installs=True, rank=1, package=CLAUDE_PACKAGE))
_register(Family(name="sdk", build=_sdk, needs_version=True, installs=True, rank=2))
# The TypeScript Agent SDK at its own version (0.3.333), running the claude binary that release bundles.
_SDK_TS = "@anthropic-ai/claude-agent-sdk"
_register(Family(name="sdk-ts", build=_sdk_ts, needs_version=True, installs=False, rank=3, package=_SDK_TS))
# Qwen Code: another agent reading a Claude Code-like setup, the case translated into its folders and names.
_register(Family(name="qwen", build=_qwen, needs_version=True, installs=False, rank=4, package="@qwen-code/qwen-code"))
# opencode: reads .claude/skills as they are; tools and their input keys translated at the fake API.
_register(Family(name="opencode", build=_opencode, needs_version=True, installs=False, rank=5, package="opencode-ai"))
# Codex: the OpenAI Responses API only (served by the same fake API); skills and hooks laid into its folders.
_register(Family(name="codex", build=_codex, needs_version=True, installs=False, rank=6, package="@openai/codex"))
