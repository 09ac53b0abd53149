#!/bin/bash
cat > /dev/null; echo "SessionEnd h8" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionEnd", "additionalContext": "HOOK-8-CONTEXT"}}'
