"""The engine's own HTTP requests (http hooks, WebFetch) open with the engine's environment, not the process's
that embeds it: a proxy set for the embedder (a CI machine's ``HTTPS_PROXY``) is not the engine's, and the real
engine is started with the case's environment only. A proxy in the engine's own environment is not measured
(which requests it carries, and ``NO_PROXY``), so it is not modelled.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Mapping

from harness.refengine.errors import NotModelled

_PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")


def opener(env: Mapping[str, str], *handlers: urllib.request.BaseHandler) -> urllib.request.OpenerDirector:
    """An opener with ``handlers`` and no proxy; NotModelled where ``env`` names one."""
    named = sorted(name for name in env if name.lower() in _PROXY_VARIABLES and env[name])
    if named:
        raise NotModelled(f"an HTTP request with a proxy in the engine's environment ({', '.join(named)})")
    return urllib.request.build_opener(urllib.request.ProxyHandler({}), *handlers)
