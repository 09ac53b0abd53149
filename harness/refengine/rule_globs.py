"""The ``paths`` globs of a ``.claude/rules/*.md`` file: which files a scoped rule covers.

Measured alike on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (cases ``memory-rules-glob-forms``,
``memory-rules-glob-names``, ``memory-rules-glob-depth``, ``memory-nested-folder``):

- a pattern with a slash is anchored at the project root (``src/**/*.py`` covers ``src/app.py``, not
  ``pkg/src/mod.py``); ``**`` as a whole segment spans zero or more folders, dot folders too (``**/*.ts``
  covers ``z.ts`` and ``.hidden/z.ts``); ``*`` stays within one folder (``lib/*.js`` covers ``lib/z.js``,
  not ``lib/sub/y.js``) and matches a name that starts with a dot (``conf/*`` covers ``conf/.env``);
- a pattern without a slash matches a file's name at any depth (``*.md`` covers ``NOTES.md`` and
  ``docs/deep/guide.md``);
- ``{a,b}`` as the first segment is either name (``{docs,spec}/**/*.txt`` covers ``spec/a.txt``);
- a ``./`` prefix matches nothing (``./scripts/**`` does not cover ``scripts/ci/run.sh``).

Anything else is not-modelled (``problem``): ``?``, ``[...]``, a leading ``!``, a backslash, braces inside a
name (``*.{yml,yaml}`` covered no ``ci/x.yaml``: what it covers is not known), a slash-less pattern without
``*`` (a name or a folder?), empty segments, a leading or trailing slash.
"""

from __future__ import annotations

import re

_NAME = re.compile(r"[\w.*-]+")
"""A segment the measurements cover: name characters and ``*``."""
_BRACES = re.compile(r"\{([\w.-]+(?:,[\w.-]+)+)\}")


def problem(glob: str) -> str | None:
    """Why ``glob`` is outside the measured forms, or None."""
    if glob.startswith("./"):
        return None  # measured: matches nothing
    segments = glob.split("/")
    if "/" not in glob:
        if "**" in glob or "*" not in glob or not _NAME.fullmatch(glob):
            return f"the glob {glob!r} (measured without a slash: a name pattern with *, such as *.md)"
        return None
    for n, segment in enumerate(segments):
        whole_braces = n == 0 and _BRACES.fullmatch(segment) is not None
        if not whole_braces and (not _NAME.fullmatch(segment) or ("**" in segment and segment != "**")):
            return (f"the glob {glob!r} (measured: segments of names, * and ** and a first segment {{a,b}}; "
                    "not ?, [...], !, braces inside a name, empty segments)")
    return None


def covers(glob: str, rel: str) -> bool:
    """Whether ``glob`` (``problem`` is None) covers the file ``rel``, a path relative to the project root."""
    if glob.startswith("./"):
        return False
    if "/" not in glob:
        return _segment(glob).fullmatch(rel.rsplit("/", 1)[-1]) is not None
    return re.fullmatch(_anchored(glob.split("/")), rel) is not None


def _anchored(segments: list[str]) -> str:
    parts: list[str] = []
    for n, segment in enumerate(segments):
        last = n == len(segments) - 1
        if segment == "**":
            parts.append(".*" if last else "(?:[^/]+/)*")
            continue
        braces = _BRACES.fullmatch(segment)
        body = "(?:" + "|".join(map(re.escape, braces.group(1).split(","))) + ")" if braces \
            else _segment(segment).pattern
        parts.append(body if last else body + "/")
    return "".join(parts)


def _segment(segment: str) -> re.Pattern[str]:
    """One segment: ``*`` is any run of characters but ``/`` (a leading dot included, measured)."""
    return re.compile("[^/]*".join(map(re.escape, segment.split("*"))))
