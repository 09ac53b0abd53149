#!/bin/bash
# A hook that records, under the name of the source that ran it, the team variables its process sees.
cat > /dev/null
echo "$1 stage=$TEAM_STAGE keep=$TEAM_KEEP user=$TEAM_USER run=$TEAM_RUN" >> "$CLAUDE_PROJECT_DIR/env.txt"
