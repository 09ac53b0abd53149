"""The ``paths`` globs of scoped rules: the forms measured on every pinned version (memory-rules-glob-forms,
-names, -depth) cover what the engine loaded them for and nothing else; other forms are not-modelled."""

from __future__ import annotations

import pytest

from harness.refengine.rule_globs import covers, problem


@pytest.mark.parametrize(("glob", "rel", "expected"), [
    ("src/**/*.py", "src/app.py", True),            # ** spans zero folders
    ("tests/**/*.py", "tests/test_app.py", True),
    ("src/**/*.py", "pkg/src/mod.py", False),       # anchored at the project root
    ("**/*.ts", ".hidden/z.ts", True),              # dot folders too
    ("**/*.ts", "z.ts", True),
    ("**/*.ts", "web/deep/x.ts", True),
    ("lib/*.js", "lib/z.js", True),
    ("lib/*.js", "lib/sub/y.js", False),            # * stays within one folder
    ("conf/*", "conf/.env", True),                  # * matches a leading dot
    ("*.md", "NOTES.md", True),
    ("*.md", "docs/deep/guide.md", True),           # no slash: any depth
    ("*.cfg", "setup.cfg", True),
    ("{docs,spec}/**/*.txt", "spec/a.txt", True),
    ("{docs,spec}/**/*.txt", "other/a.txt", False),
    ("./scripts/**", "scripts/ci/run.sh", False),   # a ./ prefix matches nothing
    ("src/**", "src/app.py", True),
    ("src/**", "srcx/app.py", False),
])
def test_measured_forms_cover_what_the_engine_loaded_them_for(glob: str, rel: str, expected: bool) -> None:
    assert problem(glob) is None
    assert covers(glob, rel) is expected


@pytest.mark.parametrize("glob", ["src/?.py", "src/[ab].py", "!src/**", "*.{yml,yaml}", "src/{a,b}/*.py",
                                  "Makefile", "**", "src//x", "/src/**", "src/", "src/a**"])
def test_other_forms_are_not_modelled(glob: str) -> None:
    assert problem(glob)
