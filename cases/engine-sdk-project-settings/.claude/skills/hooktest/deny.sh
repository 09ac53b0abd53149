#!/bin/bash
# PreToolUse hook of the hooktest skill (seed 001): deny with the articles' reason.
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-SKILL-HOOK"}}'
