#!/bin/bash
# PreToolUse hook of the hooktest skill (seeds 000 and 001). Evidence first: every hook input is appended
# to hook-input.jsonl, so the run records which Bash commands reached the hook. Then the articles' one
# line of JSON: deny, with the reason that becomes the tool_result.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-SKILL-HOOK"}}'
