#!/bin/bash
# One marker file per NotebookEdit call the PreToolUse hook sees (named after the call's new_source, print(N)):
# whether the hook fires for a call refused before the permission check.
python3 -c 'import json,sys; d=json.load(sys.stdin); n=d["tool_input"]["new_source"][6:-1]; open("hooked-"+n+".txt","w").write(d["tool_name"])'
