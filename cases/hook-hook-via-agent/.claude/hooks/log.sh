#!/bin/bash
# Command hook: keep the payload and log one line "<event> | <Bash command, else tool name, else prompt>".
input=$(cat)
printf '%s\n' "$input" >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
HOOK_INPUT="$input" python3 -c '
import json, os
d = json.loads(os.environ["HOOK_INPUT"])
ti = d.get("tool_input")
what = (ti.get("command") if isinstance(ti, dict) else None) or d.get("tool_name") or d.get("prompt") or ""
print(d.get("hook_event_name", "") + " | " + what)
' >> "$CLAUDE_PROJECT_DIR/ran.txt"
