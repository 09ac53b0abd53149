#!/bin/bash
# A warning hook: it prints its warning and exits 0, as lint plugins do.
cat > /dev/null
echo "$1" >> "$CLAUDE_PROJECT_DIR/warned.txt"
echo "LINT-WARNING-$1-STDOUT: prefer printf over echo"
echo "LINT-WARNING-$1-STDERR: prefer printf over echo" >&2
exit 0
