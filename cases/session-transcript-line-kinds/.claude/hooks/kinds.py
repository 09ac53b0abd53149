"""Which line kinds the session transcript holds when the Stop hook runs."""

import json
import os
import sys

payload = json.load(sys.stdin)
with open(payload["transcript_path"]) as lines:
    kinds = {json.loads(line).get("type") for line in lines if line.strip()}
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "kinds.txt"), "w") as out:
    for kind in ("user", "assistant", "attachment", "queue-operation"):
        out.write(f"{kind}: {'yes' if kind in kinds else 'no'}\n")
