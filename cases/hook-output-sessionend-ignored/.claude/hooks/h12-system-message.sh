#!/bin/bash
cat > /dev/null; echo "SessionEnd h12" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"systemMessage": "HOOK-12-MESSAGE"}'
