#!/bin/bash
cat > /dev/null; echo "SessionEnd h11" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"suppressOutput": true}'
