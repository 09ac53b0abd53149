"""Stop: wait (at most 20 s) until the firings of the memory files loaded during the session have been written.

The engine starts InstructionsLoaded handlers for files loaded by a Read without awaiting them, so a run
that ends right after the last Read could exit before they write (seen under load). Waiting here keeps the
transcript the same on a busy machine; it prints nothing, so the Stop hook changes nothing else.
"""
import os
import time

root = os.environ["CLAUDE_PROJECT_DIR"]
wanted = ["il/._.claude_rules_scoped.md.txt", "il-matched/._.claude_rules_scoped.md.txt", "il/._sub_CLAUDE.md.txt"]
deadline = time.monotonic() + 20
while time.monotonic() < deadline and not all(os.path.exists(os.path.join(root, w)) for w in wanted):
    time.sleep(0.1)
