#!/bin/bash
# Project settings PreToolUse/Bash rule: evidence that .claude/settings.json was read.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "log.sh ran" >> "$CLAUDE_PROJECT_DIR/settings-hook.txt"
