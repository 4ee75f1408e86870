"""Real-browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Playwright's own browser download does not work on our machines, so the tests launch
``/usr/bin/chromium``. Every test is marked ``browser`` (skipped locally without Chromium
or Playwright, a failure under ``CI=true``) and saves a screenshot of where it ended in
``test-output/e2e/<test>.png`` for a person to look at: the window as it was (a
whole-page shot of a long page, such as the API docs, takes seconds). Every page also
fails its test when it logs a JavaScript error or a Content-Security-Policy violation.

The live server runs in this process, so tests script the dice by monkeypatching
``matches.record.dice`` and may call the services directly for the other player.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from accounts.models import User

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between browser steps are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "e2e"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    # expect() waits 5 s by default, apart from the pages' 10 s: one wait for both, so
    # that a poll and its reload on a loaded CI machine are not cut short.
    expect.set_options(timeout=10_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(
    chromium: Any, live_server: Any, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Any]]:
    """``new_page(user=None, width=1100, locale="en", touch=False)``: a page in a fresh
    browser context (``touch``: a touch screen, for ``tap()``).

    With ``user`` the context carries a session cookie for them. When the test ends the
    first page's screenshot is saved (``test-output/e2e/<test>.png``, then ``-2``…).
    """
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(
        user: User | None = None, width: int = 1100, locale: str = "en", touch: bool = False
    ) -> Any:
        context = chromium.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": 900},
            has_touch=touch,
            locale=locale,
            extra_http_headers={"Accept-Language": locale},
        )
        context.set_default_timeout(10_000)
        if user is not None:
            context.add_cookies([session_cookie(user, live_server.url)])
        contexts.append(context)
        # Every document this context loads reports its CSP violations on the console.
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        page = context.new_page()
        errors: list[str] = []
        violations: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: record_csp_violation(message, page, violations))
        page.js_errors = errors
        page.csp_violations = violations
        pages.append(page)
        return page

    yield make
    OUTPUT.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    for k, page in enumerate(pages):
        suffix = "" if k == 0 else f"-{k + 1}"
        try:
            page.screenshot(path=str(OUTPUT / f"{name}{suffix}.png"))
        except Exception:  # noqa: BLE001 - a screenshot must not hide the test's own result
            pass
    for context in contexts:
        context.close()
    for page in pages:
        assert not page.js_errors, f"JavaScript errors: {page.js_errors}"
        assert not page.csp_violations, f"Content-Security-Policy violations: {page.csp_violations}"


# Added to every page before its own scripts: each ``securitypolicyviolation`` event is
# logged with a marker, so the test sees it whatever the page does with the console.
CSP_MARKER = "csp-violation:"
REPORT_CSP_VIOLATIONS = (
    "document.addEventListener('securitypolicyviolation', (e) => console.error("
    f"'{CSP_MARKER} ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + "
    "' in ' + e.documentURI + ':' + e.lineNumber));"
)


def record_csp_violation(message: Any, page: Any, violations: list[str]) -> None:
    """Keep a console message that reports a CSP violation: ours, or Chromium's own."""
    text = message.text
    if text.startswith(CSP_MARKER) or "Content Security Policy" in text:
        violations.append(f"{page.url}: {text}")


def session_cookie(user: User, url: str) -> dict[str, Any]:
    """A signed-in session for ``user``, as a cookie for the live server."""
    from django.conf import settings

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": url}
