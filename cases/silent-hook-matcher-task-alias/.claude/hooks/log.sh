#!/bin/bash
# PreToolUse rule with matcher Task (the old name of Agent).
# Evidence only: the payload goes to hook-input.jsonl and one line to marker.txt; no decision is returned.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "$(basename "$0") ran" >> "$CLAUDE_PROJECT_DIR/marker.txt"
