#!/bin/bash
cat > /dev/null; echo "PreToolUse h1" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"systemMessage": "HOOK-1-MESSAGE"}'
