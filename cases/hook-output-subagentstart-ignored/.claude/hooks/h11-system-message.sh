#!/bin/bash
cat > /dev/null; echo "SubagentStart h11" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"systemMessage": "HOOK-11-MESSAGE"}'
