#!/bin/bash
cat > /dev/null
echo "ARGS-FAIL $1" >&2
exit 2
