"""cc-harness: conformance harness for Claude Code skills, subagents, tools and hooks.

Layout (each package is one part of the pipeline):

- ``harness.case``      the case format: JSON Schema, frozen dataclasses, loader.
- ``harness.scripted``  the scripted model: replays a case's turns, journals what it was offered.
- ``harness.refengine`` the reference engine: a small executable reading of the semantics.
- ``harness.engines``   adapters that run a case on an engine (reference, claude@VERSION).
- ``harness.runner``    copies a case, runs it on an engine, builds the normalised transcript.
- ``harness.checks``    compares a transcript with the case's expectations.
- ``harness.pytest_plugin`` / ``harness.cli``  the two front doors.
"""
