#!/bin/bash
# Logs each PreToolUse call's tool and file name: whether the hook sees a call a path deny rule refuses.
python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["tool_name"], d["tool_input"].get("file_path","").rsplit("/",1)[-1])' >> ran.txt
