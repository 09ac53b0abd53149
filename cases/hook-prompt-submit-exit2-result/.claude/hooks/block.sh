#!/bin/bash
cat > /dev/null
echo "UserPromptSubmit" >> "$CLAUDE_PROJECT_DIR/ran.txt"
echo "PROMPT-BLOCKED-BY-HOOK" >&2
exit 2
