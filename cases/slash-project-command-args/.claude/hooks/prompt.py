import json
import os
import sys

payload = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "prompt-seen.txt"), "a") as out:
    out.write(f"{payload.get('prompt')}\n")
