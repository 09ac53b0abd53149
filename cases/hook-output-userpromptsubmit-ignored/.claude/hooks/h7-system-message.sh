#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h7" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"systemMessage": "HOOK-7-MESSAGE"}'
