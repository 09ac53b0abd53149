#!/bin/bash
cat > /dev/null; echo "SubagentStart h8" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"decision": "block", "reason": "HOOK-8-REASON"}'
