"""A SubagentStop hook that reads the subagent's own transcript: its task, the tools it called, its last text."""

import json
import os
import sys

payload = json.load(sys.stdin)
path = payload.get("agent_transcript_path") or ""
out = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "agent-log.txt")
if not os.path.isfile(path):
    with open(out, "a") as log:
        log.write("no agent transcript\n")
    sys.exit(0)
task, tools, last, sidechain = None, [], None, set()
with open(path) as lines:
    for line in lines:
        entry = json.loads(line)
        if entry.get("type") not in ("user", "assistant"):
            continue
        sidechain.add(entry.get("isSidechain"))
        content = entry["message"]["content"]
        if entry["type"] == "user" and task is None:
            task = content if isinstance(content, str) else "(blocks)"
        if entry["type"] == "assistant":
            tools += [b["name"] for b in content if b.get("type") == "tool_use"]
            texts = [b["text"] for b in content if b.get("type") == "text"]
            last = texts[-1] if texts else last
with open(out, "a") as log:
    log.write(f"task: {task}\ntools: {' '.join(tools)}\nlast: {last}\nsidechain: {sorted(sidechain)}\n")
