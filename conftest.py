"""Loads the cc-harness pytest plugin for this repository's own test run."""

pytest_plugins = ["harness.pytest_plugin"]
