"""Reading the harness's own YAML files (cases, expectations): through libyaml when PyYAML has it,
as every run reads them all and the pure-Python parser is most of the time that takes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """The document in ``path``, safe-loaded; raises OSError or yaml.YAMLError."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
