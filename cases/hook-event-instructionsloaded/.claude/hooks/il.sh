#!/usr/bin/env bash
# One InstructionsLoaded firing: appends its payload, less the keys that vary per run, to
# <$1>/<the loaded file's path, / as _>.txt (one file per memory file: firings for several files may run at once).
# Paths are shown relative to the project (./) or to HOME (~/); "keys" lists the payload's keys in the order sent.
# $1 names the folder (one per rule, so that two rules never write one file).
python3 -c '
import json, os, sys
d = json.load(sys.stdin)
root, home = os.environ["CLAUDE_PROJECT_DIR"], os.environ["HOME"]
def rel(v):
    if isinstance(v, str):
        v = v.replace(root + "/", "./").replace(home + "/", "~/")
    elif isinstance(v, list):
        v = [rel(x) for x in v]
    return v
shown = {k: rel(v) for k, v in sorted(d.items()) if k not in ("session_id", "transcript_path", "cwd")}
shown["keys"] = list(d)
name = str(shown.get("file_path", "none")).replace("/", "_")
os.makedirs(os.path.join(root, sys.argv[1]), exist_ok=True)
with open(os.path.join(root, sys.argv[1], name + ".txt"), "a") as f:
    f.write(json.dumps(shown, sort_keys=True) + "\n")
' "$1"
