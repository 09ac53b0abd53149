"""Appends each Read's tool_response to responses.jsonl: what a PostToolUse hook is given."""
import json
import os
import sys

payload = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "responses.jsonl"), "a") as out:
    out.write(json.dumps({"tool": payload["tool_name"], "response": payload["tool_response"]}, sort_keys=True) + "\n")
