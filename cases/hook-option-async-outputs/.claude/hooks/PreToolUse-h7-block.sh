#!/bin/bash
cat > /dev/null; echo "PreToolUse h7" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"decision": "block", "reason": "HOOK-7-REASON"}'
