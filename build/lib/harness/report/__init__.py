"""Reports from results files: engine comparisons (``check``, ``diff``), Markdown, HTML and JUnit XML.

Every renderer here reads records only (see ``harness.results``), never runs an engine, so a report
can be rebuilt at any time from saved or merged (sharded) results, and its output is deterministic.
"""
