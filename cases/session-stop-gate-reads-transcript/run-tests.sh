echo "run-tests: 3 passed"
