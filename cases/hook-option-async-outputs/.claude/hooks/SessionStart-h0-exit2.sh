#!/bin/bash
cat > /dev/null; echo "SessionStart h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo "HOOK-0-REASON" >&2; exit 2
