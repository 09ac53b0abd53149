#!/bin/bash
# Appends "<event> <what it fired for>" (a tool call's command or tool name, else nothing) to ran.txt,
# then the shell that ran the handler's command line when the command line passes one ("shell:bash").
what=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print((d.get("tool_input") or {}).get("command") or d.get("tool_name") or "")')
echo "$1 $what${2:+ shell:$2}" >> "$CLAUDE_PROJECT_DIR/ran.txt"
