"""Memory files in a process that resumes a session (``--resume``).

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 from every request the engine sent (memory-resume,
memory-resume-changed): the resumed process sends the stored conversation, whose first user message still
opens with the memory block, and adds no memory to the resumed prompt while the files are as the session
found them. A folder's CLAUDE.md and a scoped rule loaded before the resume load again, once per process, on
2.1.252 to 2.1.278; on 2.1.332 they stay loaded (``Profile.memory_loaded_kept_on_resume``).

Not modelled: files changed since the session started (2.1.332 adds a reminder holding each changed file to the
resumed prompt's message, older versions rebuild the block; memory-resume-changed), and the versions between
2.1.278 and 2.1.332.
"""

from __future__ import annotations

from pathlib import Path

from harness.refengine import memory
from harness.refengine.errors import NotModelled
from harness.refengine.runtime import Runtime


def on_resume(rt: Runtime, home: Path) -> None:
    """What a resuming process does with the session's memory files (nothing to do without any)."""
    if not rt.config.memory.present:
        return
    if memory.load(rt.workdir, home) != rt.config.memory:
        raise NotModelled("a resumed session whose memory files changed since it started (measured: unchanged "
                          "files, memory-resume)")
    kept = rt.profile.memory_loaded_kept_on_resume
    if kept is None:
        raise NotModelled("a resumed session with memory files on a version between 2.1.278 and 2.1.332 "
                          "(measured on both)")
    if not kept and rt.session.main is not None:
        rt.session.main.memory_loaded.clear()
