"""A claude release's surface: what it knows (hook events, outputs, handler options, frontmatter keys,
tools, rule forms, settings keys), read from the release itself; the committed surfaces per pinned
version under ``docs/surface/``, and which cases cover each element."""

from __future__ import annotations

from harness.engines.install import ensure_installed
from harness.surface import extract
from harness.surface.model import Kind, Surface
from harness.surface.tools import init_tools


def read_surface(version: str) -> Surface:
    """The surface of claude@``version``, installing it if needed: its bundle's schemas, and the tool list
    of a run against the fake Messages API."""
    text = extract.bundle_text(ensure_installed(version))
    found = extract.from_bundle(text)
    found[Kind.TOOL] = init_tools(version)
    return Surface(version=version, elements={k: frozenset(v) for k, v in found.items()})
