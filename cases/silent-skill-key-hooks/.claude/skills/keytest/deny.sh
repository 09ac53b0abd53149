#!/bin/bash
# The keytest skill's PreToolUse hook: if it ever registers, it leaves a marker and denies.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "deny.sh ran" >> "$CLAUDE_PROJECT_DIR/marker.txt"
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-SKILL-HOOK"}}'
