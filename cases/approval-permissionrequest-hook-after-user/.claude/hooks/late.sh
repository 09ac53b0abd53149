#!/usr/bin/env bash
# Answers deny, but only after 3 seconds (a slow policy check); records that it ran to its end.
cat > /dev/null
sleep 3
echo "LATE" >> "$CLAUDE_PROJECT_DIR/late.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "HOOK-SAYS-NO"}}}'
