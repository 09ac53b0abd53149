#!/bin/bash
cat > /dev/null; echo "SessionStart h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "HOOK-0-CONTEXT"}}'
