#!/bin/bash
# Stops only a prompt that holds STOPME: the later prompts reach the model.
input=$(cat); echo "UserPromptSubmit h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
case "$input" in *STOPME*) echo '{"continue": false, "stopReason": "HOOK-0-STOP"}';; esac
