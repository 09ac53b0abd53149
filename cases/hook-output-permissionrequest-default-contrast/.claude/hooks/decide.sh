#!/usr/bin/env bash
# A PermissionRequest hook that answers each Bash call by its command, and records every firing in fired.txt:
# the tool, the command, the payload's permission_mode and whether it names an agent (agent_id: a subagent's call).
payload=$(cat)
printf '%s' "$payload" | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["tool_input"]; print(d["tool_name"], t.get("command", t.get("file_path")), d.get("permission_mode"), "agent" if d.get("agent_id") else "main")' >> "$CLAUDE_PROJECT_DIR/fired.txt"
cmd=$(printf '%s' "$payload" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"].get("command", "-"))')
case "$cmd" in
  "touch allow.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}' ;;
  "touch deny.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"DENIED-BY-HOOK"}}}' ;;
  "touch rule.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch rule.txt"}],"behavior":"allow","destination":"session"}]}}}' ;;
  "touch mode.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}}}' ;;
esac
exit 0
