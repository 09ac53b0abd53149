#!/bin/bash
cat > /dev/null; echo "PostToolBatch h8" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"suppressOutput": true}'
