#!/bin/bash
# The well-formed PreToolUse/Bash entry.
# Evidence only: the payload goes to hook-input.jsonl and one line to good-marker.txt; no decision is returned.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "$(basename "$0") ran" >> "$CLAUDE_PROJECT_DIR/good-marker.txt"
