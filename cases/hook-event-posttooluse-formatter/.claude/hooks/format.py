import json, re, sys
# The formatter: spaces around "=" in the file the tool wrote.
path = json.load(sys.stdin)["tool_input"]["file_path"]
with open(path, encoding="utf-8") as f:
    text = f.read()
with open(path, "w", encoding="utf-8") as f:
    f.write(re.sub(r"\s*=\s*", " = ", text))
