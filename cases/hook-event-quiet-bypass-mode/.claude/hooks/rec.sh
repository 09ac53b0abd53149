#!/usr/bin/env bash
# Appends its label to fired.txt once (an event that fires many times writes one line).
cat > /dev/null
grep -qxF "$1" "$CLAUDE_PROJECT_DIR/fired.txt" 2>/dev/null || echo "$1" >> "$CLAUDE_PROJECT_DIR/fired.txt"
