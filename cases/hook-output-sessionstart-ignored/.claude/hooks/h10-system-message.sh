#!/bin/bash
cat > /dev/null; echo "SessionStart h10" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"systemMessage": "HOOK-10-MESSAGE"}'
