"""The repository's own tests (tests/) and its conformance cases (cases/, collected by the cc-harness plugin)."""
