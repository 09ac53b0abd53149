#!/bin/bash
cat > /dev/null; echo "PostToolUseFailure h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"decision": "block", "reason": "HOOK-0-REASON"}'
