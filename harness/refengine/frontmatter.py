"""The YAML frontmatter of a SKILL.md, an agent file or a rule file: one reader for all of them."""

from __future__ import annotations

import re
from typing import Any

import yaml

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.DOTALL)


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(metadata, body). Broken YAML gives empty metadata and keeps the body, as 2.1.186+ does."""
    text = text.removeprefix("\ufeff")
    m = _FRONTMATTER.match(text)
    if m is None:
        return {}, text
    try:
        meta = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        meta = None
    return (meta if isinstance(meta, dict) else {}), m.group(2).lstrip("\r\n")
