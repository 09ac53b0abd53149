"""Reports from results files: Markdown, HTML, JUnit XML, and comparisons (``check``, ``diff``) on a terminal.

Every renderer here reads records only (see ``harness.results``), never runs an engine, so a report
can be rebuilt at any time from saved or merged (sharded) results, and its output is deterministic.
What a comparison finds (harness/compare.py, harness/baseline.py) and what a timeline scan found
(harness/timeline_model.py) are computed below this package; it only renders them.
"""
