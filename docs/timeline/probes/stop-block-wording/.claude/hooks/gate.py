import json, sys
# A test gate: block the first stop, let the second through (stop_hook_active says a Stop hook already blocked).
active = json.load(sys.stdin).get("stop_hook_active")
with open("gate.txt", "a", encoding="utf-8") as f:
    f.write(f"active={active}\n")
if not active:
    print(json.dumps({"decision": "block", "reason": "RUN-THE-TESTS-FIRST"}))
