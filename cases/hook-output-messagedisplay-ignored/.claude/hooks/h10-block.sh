#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h10 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"decision": "block", "reason": "HOOK-10-REASON"}'
