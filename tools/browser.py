"""Headless Chromium for looking at the HTML reports the way a reader's browser does.

Drives Debian's Chromium (``/usr/bin/chromium``, package ``chromium``) with Playwright for Python,
never a browser Playwright downloads itself (``playwright install`` needs the network). The page is
opened from a ``file://`` address with every other request blocked, so a report that reaches for a
CDN fails visibly instead of loading: :class:`BrowserPage` collects the console errors, uncaught
page errors and failed requests of the page.

Usage (needs Chromium and the ``playwright`` package)::

    with open_page(Path("report.html")) as opened:
        tables = opened.page.locator("table.summary").count()
        assert not opened.problems, opened.problems
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page

CHROMIUM = Path("/usr/bin/chromium")
"""Where Debian's ``chromium`` package puts the browser."""

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",  # tests run as root in containers, where Chromium's sandbox cannot start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium keeps calling Google's hosts, and a closed network refuses them by the dozen.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Command-line flags of every launch."""

TIMEOUT_MS = 60_000
"""Bound of each browser operation (launch, navigation, a click, a screenshot)."""

INSTALL_TIMEOUT_S = 900
"""Bound of each ``apt-get`` call when Chromium has to be installed."""

LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")
"""Addresses a self-contained report may load; any other request is blocked and reported."""

INSTALL_HINT = "install Debian's chromium: apt-get install chromium"


class BrowserUnavailable(RuntimeError):
    """Chromium or Playwright cannot be had here; the message names the fix."""


def chromium_or_reason(*, install: bool = True) -> tuple[Path | None, str]:
    """The Chromium executable and ``""``, or ``None`` and why not (naming the fix).

    When Chromium is missing, ``install`` is true and this process is root on a machine with
    ``apt-get``, Debian's ``chromium`` is installed first (``apt-get update`` only if the plain
    install fails, e.g. on stale package lists), each call bounded by :data:`INSTALL_TIMEOUT_S`.
    """
    if importlib.util.find_spec("playwright") is None:
        return None, 'the Python package playwright is missing: pip install -e ".[dev]" (or pip install playwright)'
    found = _find_chromium()
    if found is not None:
        return found, ""
    if not install:
        return None, f"Chromium not found: {INSTALL_HINT}"
    if shutil.which("apt-get") is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None, f"Chromium not found and this process cannot install it (not root with apt-get): {INSTALL_HINT}"
    print("Installing Debian's chromium for the headless browser (apt-get install chromium)...", file=sys.stderr)
    failure = _apt_get("install", "-y", "-q", "chromium")
    if failure:
        failure = _apt_get("update", "-q") or _apt_get("install", "-y", "-q", "chromium")
    found = _find_chromium()
    if found is None:
        return None, f"apt-get could not install chromium ({failure or 'no chromium executable afterwards'}): {INSTALL_HINT}"
    return found, ""


def _find_chromium() -> Path | None:
    """Chromium on ``PATH``, else at Debian's place, else ``None``."""
    on_path = shutil.which("chromium")
    if on_path:
        return Path(on_path)
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else None


def _apt_get(*args: str) -> str:
    """Run ``apt-get args`` non-interactively; ``""`` on success, else what went wrong."""
    try:
        done = subprocess.run(
            ["apt-get", *args],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
    except subprocess.TimeoutExpired:
        return f"apt-get {args[0]} took over {INSTALL_TIMEOUT_S} s"
    if done.returncode == 0:
        return ""
    last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return f"apt-get {args[0]}: {last}"


@dataclass
class BrowserPage:
    """A page opened by :func:`open_page` and what went wrong on it so far.

    Args:
        page: The Playwright page, to query and click.
        console_errors: Text of each ``console.error`` (Chromium logs failed loads there too).
        page_errors: Each uncaught exception of the page's scripts.
        failed_requests: ``URL: reason`` of each request that failed or was blocked as non-local.
    """

    page: Page
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        """Every error collected, each prefixed by its kind; empty for a clean page."""
        return [
            *(f"console error: {text}" for text in self.console_errors),
            *(f"page error: {text}" for text in self.page_errors),
            *(f"failed request: {text}" for text in self.failed_requests),
        ]


@contextlib.contextmanager
def open_page(html: Path, *, width: int = 1280, height: int = 900, executable: Path | None = None) -> Iterator[BrowserPage]:
    """Open ``html`` in a fresh headless Chromium (new empty profile, no network) and yield it
    once loaded; the browser and its profile are gone afterwards.

    Args:
        html: The page, opened as a ``file://`` address.
        width: Viewport width, CSS pixels.
        height: Viewport height, CSS pixels.
        executable: The Chromium to run; by default :func:`chromium_or_reason`'s.

    Raises:
        BrowserUnavailable: Chromium or Playwright cannot be had (the message names the fix).
        FileNotFoundError: ``html`` does not exist.
    """
    if executable is None:
        executable, reason = chromium_or_reason()
        if executable is None:
            raise BrowserUnavailable(reason)
    if not html.is_file():
        raise FileNotFoundError(f"no page to open at {html}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(executable),
            headless=True,
            args=list(CHROMIUM_FLAGS),
            viewport={"width": width, "height": height},
            timeout=TIMEOUT_MS,
        )
        try:
            context.set_default_timeout(TIMEOUT_MS)
            context.route(lambda url: not url.startswith(LOCAL_SCHEMES), lambda route: route.abort("blockedbyclient"))
            page = context.pages[0] if context.pages else context.new_page()
            opened = BrowserPage(page)

            def on_console(message: ConsoleMessage) -> None:
                if message.type == "error":
                    opened.console_errors.append(f"{message.text} ({message.location.get('url', '')})")

            page.on("console", on_console)
            page.on("pageerror", lambda error: opened.page_errors.append(str(error)))
            page.on("requestfailed", lambda request: opened.failed_requests.append(f"{request.url}: {request.failure}"))
            page.goto(html.resolve().as_uri(), wait_until="load")
            yield opened
        finally:
            context.close()


def screenshot(html: Path, png: Path, *, width: int = 1280, height: int = 1600, full_page: bool = False) -> list[str]:
    """Save a PNG of ``html`` as Chromium renders it: the top ``width`` x ``height`` pixels, or
    the whole page with ``full_page``. Returns the page's :attr:`BrowserPage.problems` (empty when
    clean), so a caller can refuse a screenshot of a broken page."""
    with open_page(html, width=width, height=height) as opened:
        opened.page.wait_for_function("Array.from(document.images).every(image => image.complete)")
        png.parent.mkdir(parents=True, exist_ok=True)
        opened.page.screenshot(path=str(png), full_page=full_page)
        return opened.problems
