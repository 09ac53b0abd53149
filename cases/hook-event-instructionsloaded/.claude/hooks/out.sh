#!/usr/bin/env bash
# Prints what other events honour (a system message, added context, continue: false); the engine's use of it is checked.
echo '{"continue": false, "stopReason": "IL-STOP", "systemMessage": "IL-SYS", "hookSpecificOutput": {"hookEventName": "InstructionsLoaded", "additionalContext": "IL-CTX"}}'
