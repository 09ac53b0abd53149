#!/bin/bash
cat > /dev/null; echo "SubagentStop h9" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"suppressOutput": true}'
