#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h11 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"continue": false, "stopReason": "HOOK-11-STOP"}'
