#!/bin/bash
cat > /dev/null; echo "Stop h1" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo HOOK-1-STDOUT
