#!/bin/bash
# PreToolUse logger on every tool (matcher "*"): one line per tool the engine is about to run, plus the
# raw hook input. Hooks never appear in the message stream (H7), so these files are the evidence of
# which tools actually ran. Prints nothing and exits 0: it decides nothing.
input=$(cat)
printf '%s\n' "$input" >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
name=$(printf '%s' "$input" | sed -n 's/.*"tool_name" *: *"\([^"]*\)".*/\1/p' | head -n 1)
printf 'PreToolUse | %s\n' "$name" >> "$CLAUDE_PROJECT_DIR/tools.log"
exit 0
