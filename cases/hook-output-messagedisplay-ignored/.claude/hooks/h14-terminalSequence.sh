#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h14 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"terminalSequence": "\u0007"}'
