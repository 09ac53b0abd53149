import json
import os
import sys

# CwdChanged: ask the engine to watch watched.txt of the project.
json.load(sys.stdin)
path = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "watched.txt")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "CwdChanged", "watchPaths": [path]}}))
