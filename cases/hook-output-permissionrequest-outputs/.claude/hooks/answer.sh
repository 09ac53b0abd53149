#!/usr/bin/env bash
# A PermissionRequest hook that answers each Bash call by its command; records every firing in fired.txt, and the
# payload's permission_suggestions (as sent), its permission_mode and its keys in order in suggestions.txt.
payload=$(cat)
cmd=$(printf '%s' "$payload" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"].get("command", "-"))')
printf '%s' "$payload" | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["tool_input"]; print(d["tool_name"], t.get("command", t.get("file_path")))' >> "$CLAUDE_PROJECT_DIR/fired.txt"
printf '%s' "$payload" | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["tool_input"]; print(d["tool_name"], t.get("command", t.get("file_path")), json.dumps(d.get("permission_suggestions")), d.get("permission_mode"), " ".join(d))' >> "$CLAUDE_PROJECT_DIR/suggestions.txt"
case "$cmd" in
  "touch a.txt") echo "EXIT2-SAYS-NO" >&2; exit 2 ;;
  "touch b.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}' ;;
  "touch c.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"touch c2.txt","description":"Create c2.txt"}}}}' ;;
  "touch d.txt") echo "EXIT1-SAYS" >&2; exit 1 ;;
  "touch e.txt") echo "PLAIN-TEXT" ;;
  "touch g.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch g.txt"}],"behavior":"allow","destination":"session"}]}}}' ;;
  "touch f.txt") echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"STOP-HERE","interrupt":true}}}' ;;
esac
exit 0
