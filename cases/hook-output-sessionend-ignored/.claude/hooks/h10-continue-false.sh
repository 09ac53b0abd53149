#!/bin/bash
cat > /dev/null; echo "SessionEnd h10" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"continue": false, "stopReason": "HOOK-10-STOP"}'
