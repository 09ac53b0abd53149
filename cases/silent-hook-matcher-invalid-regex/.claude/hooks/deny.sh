#!/bin/bash
# PreToolUse deny rule from .claude/settings.json.
# Payload to hook-input.jsonl, one line to marker.txt, then the articles' one line of JSON: deny.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "$(basename "$0") ran" >> "$CLAUDE_PROJECT_DIR/marker.txt"
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-SETTINGS-HOOK"}}'
