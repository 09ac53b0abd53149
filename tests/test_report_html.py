"""The HTML report opened in real headless Chromium: the grid and a case section render.

The screenshot is kept in ``test-artefacts/report.png`` (a folder that ignores itself in git) so a
reviewer can look at the page CI rendered.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from harness import results
from harness.cli import main
from tests.conftest import REPO

#: one worker builds ``report_html`` (two real engines) for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_report_html")

ARTEFACTS = REPO / "test-artefacts"
ENGINES = "claude@2.1.252,claude@2.1.332"
CASE = "tool-hook-pretooluse-deny"


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium_args(profile: Path) -> list[str]:
    return [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        f"--user-data-dir={profile}",
    ]


class _Dom(HTMLParser):
    """The parts of the rendered DOM the test looks at: tables by class, sections by id, their text."""

    def __init__(self) -> None:
        super().__init__()
        self.grid_tables = 0
        self.grid_headers: list[str] = []
        self.sections: dict[str, str] = {}
        self._in_grid = False
        self._section: str | None = None
        self._header = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and a.get("class") == "grid":
            self.grid_tables += 1
            self._in_grid = True
        if tag == "th" and self._in_grid:
            self._header = True
            self.grid_headers.append("")
        if tag == "section" and (a.get("id") or "").startswith("case-"):
            self._section = (a.get("id") or "").removeprefix("case-")
            self.sections[self._section] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_grid = False
        if tag == "th":
            self._header = False
        if tag == "section":
            self._section = None

    def handle_data(self, data: str) -> None:
        if self._header:
            self.grid_headers[-1] += data
        if self._section:
            self.sections[self._section] += data


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("html")
    saved = root / "run.jsonl"
    main(["run", "--engine", ENGINES, "--case", CASE, "--case", "skill-tool-allowed-tools", "--results", str(saved)])
    html = root / "report.html"
    code = main(
        [
            "report",
            "--results",
            str(saved),
            "--markdown",
            str(root / "c.md"),
            "--html",
            str(html),
            "--junit",
            str(root / "j.xml"),
        ]
    )
    assert code == 0
    return html


class _Fetches(HTMLParser):
    """Every URL the page would load: an attribute that fetches, or a url(...) in a style."""

    FETCHING = frozenset({"src", "href", "srcset", "action", "data", "poster", "background"})

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_style = tag == "style"
        self.urls += [v for k, v in attrs if k in self.FETCHING and v]
        self.urls += [m for k, v in attrs if k == "style" and v for m in re.findall(r"url\(([^)]*)\)", v)]
        if tag in ("link", "iframe", "object", "embed"):
            self.urls.append(f"<{tag}>")

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.urls += re.findall(r"url\(([^)]*)\)", data) + ["<@import>"] * data.count("@import")


def test_the_page_needs_nothing_from_outside(report_html: Path) -> None:
    """Observed strings may hold URLs (shown as text); nothing in the page fetches one."""
    page = _Fetches()
    page.feed(report_html.read_text(encoding="utf-8"))
    assert [u for u in page.urls if u.startswith("<") or re.match(r"\s*['\"]?([a-z]+:)?//", u)] == []


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_chromium_renders_the_grid_and_a_case_section(report_html: Path, tmp_path: Path) -> None:
    chromium = _chromium()
    assert chromium is not None
    url = report_html.resolve().as_uri()
    dump = subprocess.run(
        [chromium, *_chromium_args(tmp_path / "profile-dom"), "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert dump.returncode == 0, dump.stderr[-2000:]
    dom = _Dom()
    dom.feed(dump.stdout)
    assert dom.grid_tables == 2, "one grid per engine"
    for part in ("skill", "subagent", "tool", "hook"):
        assert part in dom.grid_headers
    section = dom.sections[CASE]
    # The fixture named (never read: a report renders records alone) and both engines' transcripts, with
    # the hook's denial as each engine worded it.
    assert f"fixture: cases/{CASE}/" in section
    assert "claude@2.1.252" in section and "claude@2.1.332" in section
    assert "BLOCKED-BY-SETTINGS-HOOK" in section and "PreToolUse:Bash hook error: BLOCKED-BY-SETTINGS-HOOK" in section

    ARTEFACTS.mkdir(exist_ok=True)
    (ARTEFACTS / ".gitignore").write_text("*\n", encoding="utf-8")  # rendered output, never committed
    screenshot = ARTEFACTS / "report.png"
    screenshot.unlink(missing_ok=True)
    shot = subprocess.run(
        [
            chromium,
            *_chromium_args(tmp_path / "profile-shot"),
            "--window-size=1400,2400",
            f"--screenshot={screenshot}",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert shot.returncode == 0, shot.stderr[-2000:]
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.stat().st_size > 20_000, "a blank page compresses to a few kilobytes"


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_the_filter_shows_the_cases_with_that_status_on_that_engine(report_html: Path, tmp_path: Path) -> None:
    """``?status=...&engine=...`` opens the page filtered; the count and the hidden sections follow it."""
    chromium = _chromium()
    assert chromium is not None
    saved = results.read(report_html.parent / "run.jsonl").records
    for query, engine, status in (
        ("status=known&engine=claude@2.1.332", "claude@2.1.332", "known"),
        ("status=pass&engine=claude@2.1.252", "claude@2.1.252", "pass"),
    ):
        expected = sorted(r.case for r in saved if r.engine.text() == engine and r.status == status)
        url = f"{report_html.as_uri()}?{query}"
        dump = subprocess.run(
            [chromium, *_chromium_args(tmp_path / f"profile-{status}"), "--dump-dom", url],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert dump.returncode == 0, dump.stderr[-2000:]
        assert f'id="filter-count">{len(expected)} cases shown<' in dump.stdout
        shown = re.findall(r'<section class="case" id="case-([^"]+)"(?![^>]*display: none)[^>]*>', dump.stdout)
        assert sorted(shown) == expected


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_chromium_renders_the_timeline_from_the_committed_scan(report_html: Path, tmp_path: Path) -> None:
    """The suite's timeline (docs/timeline/scan.jsonl) is a table: behaviour, first version, old and new."""
    chromium = _chromium()
    assert chromium is not None
    dump = subprocess.run(
        [chromium, *_chromium_args(tmp_path / "profile-timeline"), "--dump-dom", report_html.resolve().as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert dump.returncode == 0, dump.stderr[-2000:]
    table = re.search(r'<table class="timeline">(.*?)</table>', dump.stdout, re.S)
    assert table is not None, "no timeline section"
    rows = re.findall(r"<tr[^>]*><th>([^<]+)</th><td>([^<]+)</td>(.*?)</tr>", table.group(1), re.S)
    deny = [r for r in rows if r[0] == "hook_deny_reason_names_event"]
    assert deny and deny[0][1] == "2.1.281"
    assert "(as documented: BLOCKED-BY-" in deny[0][2] and "PreToolUse:Bash hook error: BLOCKED-BY-" in deny[0][2]
    frame = [r for r in rows if r[0] == "agent_result_hand_back_frame"]  # a transcript field: from its bisect
    assert frame and frame[0][1] == "2.1.277" and "[Subagent hand-back]" in frame[0][2], "a bisect's row"
    windows = re.findall(r'<tr class="window"><th>([^<]+)</th><td>([^<]+)</td><td>([^<]+)</td>', table.group(1))
    assert ("auto_mode_classifier_refusal", "2.1.285", "2.1.301 (gone in 2.1.302)") in windows
    assert '<h2 id="timeline">Timeline</h2>' in dump.stdout
