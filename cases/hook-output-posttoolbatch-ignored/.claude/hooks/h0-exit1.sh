#!/bin/bash
cat > /dev/null; echo "PostToolBatch h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo "HOOK-0-REASON" >&2; exit 1
