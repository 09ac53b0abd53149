#!/bin/bash
cat > /dev/null; echo "PostToolUseFailure h1" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo "HOOK-1-REASON" >&2; exit 1
