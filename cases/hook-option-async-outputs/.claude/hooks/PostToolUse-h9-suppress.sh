#!/bin/bash
cat > /dev/null; echo "PostToolUse h9" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"suppressOutput": true}'
