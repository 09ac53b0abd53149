#!/bin/bash
cat > /dev/null; echo "PostToolUseFailure h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "HOOK-0-CONTEXT"}}'
