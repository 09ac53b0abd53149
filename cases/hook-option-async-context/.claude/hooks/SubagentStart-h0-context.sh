#!/bin/bash
cat > /dev/null; echo "SubagentStart h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": "HOOK-0-CONTEXT"}}'
