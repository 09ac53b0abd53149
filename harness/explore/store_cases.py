"""``python3 -m harness.explore.store_cases RESULTS.jsonl...``: the case folders of explorer results files
written before the explorer kept its cases (see ``explorer.store_drawn_cases``), so that a re-judge runs
the recorded cases after the grammar changes. Run it before changing the grammar."""

from __future__ import annotations

import sys
from pathlib import Path

from harness.explore.explorer import store_drawn_cases


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python3 -m harness.explore.store_cases RESULTS.jsonl...", file=sys.stderr)
        return 2
    for name in argv:
        written = store_drawn_cases(Path(name))
        print(f"{name}: {len(written)} case folder(s) written to {Path(name).parent / 'cases'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
