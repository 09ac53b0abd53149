#!/bin/bash
# Answers displayContent for the first message only.
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
if [ "$d" = BEFORE ]; then
  echo '{"hookSpecificOutput": {"hookEventName": "MessageDisplay", "displayContent": "SHOWN-INSTEAD"}}'
fi
