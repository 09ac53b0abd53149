"""The commands of ``cc-harness``, one module each: its arguments (``add_parser``) and what it
does (its own ``_run``, which ``add_parser`` hands the parser).

``harness.cli`` builds the parser from them and dispatches; the work itself lives below, in the
harness's modules (``batch`` runs many cases, ``baseline`` chooses and judges what ``check`` compares)."""
