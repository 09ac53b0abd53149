#!/bin/bash
cat > /dev/null; echo "SessionEnd h9" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"decision": "block", "reason": "HOOK-9-REASON"}'
