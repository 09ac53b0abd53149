"""WebFetch and WebSearch: tools that reach out, then hand what came back to the model.

Measured on 2.1.252 to 2.1.332 without a network (tool-builtin-web): WebFetch first asks claude.ai whether
the domain may be fetched, which fails offline, unless settings say ``skipWebFetchPreflight``; it fetches
``http`` URLs over https; the page goes to a tool-less side request of the model, whose reply is the tool
result. WebSearch is a model request of its own, offered only the API's server tool ``web_search``; the
result quotes that request's reply. The wording of both side requests was not recorded (stand-ins below).
"""

from __future__ import annotations

import html
import json
import re
import ssl
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, urlsplit

from harness.refengine import http_client, tool_messages
from harness.refengine.conversation import text_of, user_text
from harness.refengine.errors import NotModelled
from harness.refengine.runtime import Request, Runtime
from harness.refengine.tool_model import ToolResult

_FETCH_TIMEOUT_SECONDS = 60.0
# Stand-ins: what the side requests say besides the page and the query was not measured (the scripted
# model answers any tool-less request ``ok`` and matches the search request by its opening).
_FETCH_SIDE_SYSTEM = "You answer a question about the content of a web page."
_SEARCH_SIDE_SYSTEM = "You are an assistant for performing a web search tool use."
_SERVER_SEARCH_TOOL = "web_search"


def run_webfetch(rt: Runtime, tool_input: Mapping[str, Any]) -> ToolResult:
    parts = urlsplit(str(tool_input["url"]))
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotModelled("WebFetch of a URL that is not http(s)://host (the validation message differs by version)")
    if _setting(rt, "skipWebFetchPreflight") is not True:
        # Offline the preflight always fails; with a network the real engine's answer depends on claude.ai.
        return ToolResult(content=tool_messages.webfetch_unverified(parts.hostname), is_error=True)
    started = time.monotonic()
    fetched = _fetch(rt, parts)
    if isinstance(fetched, ToolResult):
        return fetched
    body, content_type = fetched
    reply = text_of(rt.model.respond(Request(
        system=_FETCH_SIDE_SYSTEM,
        messages=(user_text(f"Web page content:\n---\n{_page_text(body, content_type)}\n---\n\n"
                            f"{tool_input['prompt']}"),),
        tools=())))
    return ToolResult(content=reply, response={
        "bytes": len(body), "code": 200, "codeText": "OK", "result": reply,
        "durationMs": int((time.monotonic() - started) * 1000), "url": tool_input["url"]})


def _fetch(rt: Runtime, parts: SplitResult) -> tuple[bytes, str] | ToolResult:
    """GET over https; the answers measured for a refused connection and a 404, NotModelled otherwise."""
    url = parts._replace(scheme="https").geturl()
    request = urllib.request.Request(url, headers={"User-Agent": _user_agent(rt)})
    opener = http_client.opener(rt.env, _NoRedirects(), urllib.request.HTTPSHandler(context=_tls(rt.env)))
    try:
        with opener.open(request, timeout=_FETCH_TIMEOUT_SECONDS) as response:
            return response.read(), response.headers.get_content_type()
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return ToolResult(content=tool_messages.webfetch_http_error(404, "Not Found"))
        raise NotModelled(f"WebFetch answered HTTP {exc.code}") from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, ConnectionRefusedError):
            return ToolResult(content=tool_messages.webfetch_refused(str(parts.hostname), parts.port or 443),
                              is_error=True)
        raise NotModelled(f"WebFetch network error ({exc.reason})") from None


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects are the real engine's own business (it refuses some across hosts): not measured."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        raise NotModelled(f"WebFetch redirected (HTTP {code})")


def _tls(env: Mapping[str, str]) -> ssl.SSLContext:
    """The engine runs on Node's TLS stack: ``NODE_TLS_REJECT_UNAUTHORIZED=0`` turns certificate checks off."""
    context = ssl.create_default_context()
    if env.get("NODE_TLS_REJECT_UNAUTHORIZED") == "0":
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def _user_agent(rt: Runtime) -> str:
    """Measured on 2.1.252 and 2.1.332, with the engine's version."""
    version = ".".join(map(str, rt.profile.version))
    return f"Claude-User (claude-code/{version}; +https://support.anthropic.com/)"


def _page_text(body: bytes, content_type: str) -> str:
    """What the side request gets: HTML as text (the real engine converts to Markdown; not measured)."""
    text = body.decode("utf-8", errors="replace")
    if content_type != "text/html":
        return text
    return html.unescape(re.sub(r"\s*<[^>]+>\s*", "\n", text)).strip()


def run_websearch(rt: Runtime, tool_input: Mapping[str, Any]) -> ToolResult:
    if tool_input.get("allowed_domains") or tool_input.get("blocked_domains"):
        raise NotModelled("WebSearch with allowed_domains or blocked_domains")
    query = str(tool_input["query"])
    started = time.monotonic()
    request = Request(system=_SEARCH_SIDE_SYSTEM, messages=(user_text(tool_messages.websearch_request(query)),),
                      tools=(_SERVER_SEARCH_TOOL,))
    reply = rt.model.respond(request)
    if any(block.get("type") != "text" for block in reply):
        raise NotModelled("WebSearch whose model calls a tool (the API runs web_search itself)")
    answer = text_of(reply)
    return ToolResult(content=tool_messages.websearch_result(query, answer), response={
        "query": query, "results": [answer], "durationSeconds": round(time.monotonic() - started, 3)})


def _setting(rt: Runtime, key: str) -> Any:
    """A top-level settings key, later files winning: user, project, local. config.py does not carry the
    keys WebFetch reads, so they are read here (the same three files)."""
    home = Path(rt.env.get("HOME", ""))
    value: Any = None
    for path in (home / ".claude" / "settings.json", rt.workdir / ".claude" / "settings.json",
                 rt.workdir / ".claude" / "settings.local.json"):
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(settings, dict) and key in settings:
            value = settings[key]
    return value
