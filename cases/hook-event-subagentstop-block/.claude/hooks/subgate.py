import json, sys
# Block the subagent's first stop; stop_hook_active is true once a SubagentStop hook has blocked.
if not json.load(sys.stdin).get("stop_hook_active"):
    print(json.dumps({"decision": "block", "reason": "SUBAGENT-NOT-DONE"}))
