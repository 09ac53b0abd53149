#!/bin/bash
# PreToolUse hook: keeps its input as evidence, then denies the call with a reason of its own.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-PLUGIN-SKILL-HOOK"}}'
