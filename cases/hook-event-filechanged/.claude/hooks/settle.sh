#!/usr/bin/env bash
# Stop: wait (at most 20 s) until fired.txt holds the three FileChanged lines. The engine's file watcher fires
# FileChanged some time after the change, and the engine does not await its handlers before its process ends,
# so under load the run could end before they wrote; the "sleep 2" call alone only makes that unlikely. It
# prints nothing, so it changes nothing else (rec.sh, the other Stop handler, records Stop).
cat > /dev/null
for _ in $(seq 200); do
  [ "$(grep -c '^FileChanged' "$CLAUDE_PROJECT_DIR/fired.txt" 2>/dev/null)" -ge 3 ] && exit 0
  sleep 0.1
done
