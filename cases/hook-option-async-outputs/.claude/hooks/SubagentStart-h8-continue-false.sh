#!/bin/bash
cat > /dev/null; echo "SubagentStart h8" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"continue": false, "stopReason": "HOOK-8-STOP"}'
