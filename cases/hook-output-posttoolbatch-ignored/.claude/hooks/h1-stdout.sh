#!/bin/bash
cat > /dev/null; echo "PostToolBatch h1" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo HOOK-1-STDOUT
