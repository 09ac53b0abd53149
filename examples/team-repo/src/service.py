"""The service itself (a stand-in: the cases are about the team's Claude Code setup)."""

LOGIN_TIMEOUT_SECONDS = 120  # TICKET-42


def health() -> dict[str, str]:
    return {"status": "ok", "version": "1.4.0"}
