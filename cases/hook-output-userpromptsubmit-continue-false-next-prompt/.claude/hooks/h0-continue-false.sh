#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"continue": false, "stopReason": "HOOK-0-STOP"}'
