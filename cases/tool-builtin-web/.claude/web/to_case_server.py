"""PreToolUse hook for WebFetch: points http://case-server/... at the case's own server.

The scripted model cannot know the port the server picked; the harness writes it over {{port:web}}
in this file, and the hook hands the engine the rewritten URL through updatedInput.
"""

import json
import sys

tool_input = json.load(sys.stdin)["tool_input"]
url = tool_input.get("url", "")
if url.startswith("http://case-server/"):
    rewritten = dict(tool_input, url=url.replace("http://case-server", "http://127.0.0.1:{{port:web}}", 1))
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                             "updatedInput": rewritten}}))
