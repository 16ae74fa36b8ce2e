"""A real browser for the tests: Debian's chromium driven by Playwright, or a skip that says why."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="the browser tests need Playwright: pip install playwright")
from playwright.sync_api import sync_playwright  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 10_000


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("the browser tests need chromium: apt-get install -y chromium")
    return path


@pytest.fixture
def browser():
    path = chromium_path()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def open_seat(browser, server, table, seat, viewport=None):
    """A page at ``seat``'s link (None: a spectator), once it shows the table; its errors kept."""
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 860})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    link = f"{server.url}/t/{table.id}" + (f"#token={table.tokens.token(seat)}" if seat is not None else "")
    page.goto(link)
    page.wait_for_function("document.body.dataset.version !== undefined", timeout=WAIT_MS)
    return page


def wait_version(page, version, above=False):
    """Until the page shows the table at ``version`` or later (``above``: later only)."""
    test = ">" if above else ">="
    page.wait_for_function(f"Number(document.body.dataset.version) {test} {version}", timeout=WAIT_MS, polling=10)


def screenshot(page, name, full_page=True):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
