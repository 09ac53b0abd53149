#!/bin/bash
# PreToolUse deny rule of the probe agent: keep the payload, leave a marker, deny the call.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "DENY-HOOK-RAN" >> "$CLAUDE_PROJECT_DIR/marker.txt"
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-AGENT-HOOK"}}'
