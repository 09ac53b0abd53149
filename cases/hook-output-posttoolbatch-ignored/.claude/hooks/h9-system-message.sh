#!/bin/bash
cat > /dev/null; echo "PostToolBatch h9" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"systemMessage": "HOOK-9-MESSAGE"}'
