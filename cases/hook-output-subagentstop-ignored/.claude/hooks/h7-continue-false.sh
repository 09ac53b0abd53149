#!/bin/bash
cat > /dev/null; echo "SubagentStop h7" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"continue": false, "stopReason": "HOOK-7-STOP"}'
