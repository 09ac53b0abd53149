#!/bin/bash
# A Stop hook that never lets the turn end (ignores stop_hook_active): an endless loop by design.
cat > /dev/null
echo "stop" >> "$CLAUDE_PROJECT_DIR/stops.txt"
echo "Keep going." >&2
exit 2
