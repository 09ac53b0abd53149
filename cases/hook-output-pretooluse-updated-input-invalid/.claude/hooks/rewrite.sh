#!/bin/bash
# Rewrites every Edit into an input Edit does not accept (a Bash command), with no decision.
cat > /dev/null
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "echo REWRITTEN"}}}'
