#!/bin/bash
cat > /dev/null; echo "PostToolBatch h10" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"terminalSequence": "\u0007"}'
