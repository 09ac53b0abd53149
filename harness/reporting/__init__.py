"""The reports' models built from records, contracts and comparisons (harness/report/ renders them)."""

from harness.reporting.build import changes_by_case, changes_by_claim, compatibility_of, model_of

__all__ = ["changes_by_case", "changes_by_claim", "compatibility_of", "model_of"]
