#!/bin/bash
cat > /dev/null; echo "PostToolUse h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "HOOK-0-CONTEXT"}}'
