#!/bin/bash
cat > /dev/null; echo "SubagentStop h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo HOOK-2-STDOUT
