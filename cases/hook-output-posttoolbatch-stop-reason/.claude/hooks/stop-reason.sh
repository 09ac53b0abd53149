#!/usr/bin/env bash
# Records itself, then answers a stopReason without continue: false.
cat > /dev/null; echo "PostToolBatch ran" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"stopReason": "HOOK-STOP"}'
