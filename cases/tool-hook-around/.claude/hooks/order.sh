#!/bin/bash
# Records, for the event named in $1, whether the shell had already run the Bash command (that command
# creates ran-by-shell.txt). Prints nothing and exits 0: it decides nothing.
cat >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
if [ -e "$CLAUDE_PROJECT_DIR/ran-by-shell.txt" ]; then state="shell had run"; else state="shell had not run"; fi
echo "$1 | $state" >> "$CLAUDE_PROJECT_DIR/order.txt"
exit 0
