"""Appends each call's tool_response to responses.jsonl, and its keys in the order the engine sent them: what a
PostToolUse hook is given."""
import json
import os
import sys

payload = json.load(sys.stdin)
response = payload["tool_response"]
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "responses.jsonl"), "a") as out:
    out.write(json.dumps({"tool": payload["tool_name"], "order": list(response), "response": response},
                         sort_keys=True) + "\n")
