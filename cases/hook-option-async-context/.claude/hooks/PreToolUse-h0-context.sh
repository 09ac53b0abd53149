#!/bin/bash
cat > /dev/null; echo "PreToolUse h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "HOOK-0-CONTEXT"}}'
