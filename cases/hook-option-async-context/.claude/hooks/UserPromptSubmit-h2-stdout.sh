#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo HOOK-2-STDOUT
