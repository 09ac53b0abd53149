#!/usr/bin/env bash
# Exit 2 with a reason on stderr: a blocking error on the events that honour it.
echo "IL-ERR blocked" >&2
exit 2
