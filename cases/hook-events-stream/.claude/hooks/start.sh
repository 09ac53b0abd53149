#!/bin/bash
cat > /dev/null
echo "SessionStart" >> "$CLAUDE_PROJECT_DIR/ran.txt"
exit 0
