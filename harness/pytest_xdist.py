"""xdist scheduling for case tests under ``--dist loadgroup``: each case test is a unit of its own.

``loadgroup`` takes what follows the last ``@`` of a test's id as its group (xdist appends ``@<group>`` to
the id of a test marked ``xdist_group``), so ``cases/x/case.yaml::claude@2.1.332`` would fall into a group
``2.1.332`` with every other case test of that version, all run one after another on one worker while
the others idle. A case test carries no ``xdist_group`` mark, so its ``@`` is the engine's, and the case
test is scheduled alone, as ``--dist load`` schedules every test.
"""

from __future__ import annotations

from xdist.scheduler import LoadGroupScheduling

from harness.case import CASE_FILE


class CaseTestsApart(LoadGroupScheduling):  # type: ignore[misc]  # xdist ships no type hints
    """``loadgroup``, except that a case test (``<cases>/<id>/case.yaml::<engine>``) is a unit of its own."""

    def _split_scope(self, nodeid: str) -> str:
        path, sep, _ = nodeid.partition("::")
        if sep and (path == CASE_FILE or path.endswith(f"/{CASE_FILE}")):
            return nodeid
        return str(super()._split_scope(nodeid))
