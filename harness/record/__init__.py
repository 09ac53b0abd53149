"""``cc-harness record``: a real session becomes a case.

Two sources, one conversion (``model.Recording`` -> ``writer.write_case``):

- ``session``: a session transcript the engine already wrote (``~/.claude/projects/<project>/<id>.jsonl``
  and its subagents' sidechains);
- ``proxy``: a live run through a loopback recording proxy in front of the Messages API
  (``exchanges`` reads what it saved).
"""
