#!/bin/bash
# As the explorer's hooks do: read the payload, append the event's name.
cat > /dev/null; echo "$1" >> "$CLAUDE_PROJECT_DIR/ran.txt"
