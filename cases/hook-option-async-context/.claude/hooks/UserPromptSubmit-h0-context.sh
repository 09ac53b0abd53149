#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "HOOK-0-CONTEXT"}}'
