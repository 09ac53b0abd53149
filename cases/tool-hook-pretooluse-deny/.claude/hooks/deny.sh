#!/bin/bash
# PreToolUse/Bash hook from .claude/settings.json: records that the engine ran it (marker.txt, plus the
# raw hook input), then denies the call. Nothing in the Bash tool names this script.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "PreToolUse | deny.sh ran" >> "$CLAUDE_PROJECT_DIR/marker.txt"
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-SETTINGS-HOOK"}}'
