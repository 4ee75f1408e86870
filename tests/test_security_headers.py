"""Content-Security-Policy and Permissions-Policy on every page (issue 12).

The policy allows scripts and styles from the site only ('self'), so a page must carry
no inline script, ``<style>`` element, ``style=`` attribute or ``on…=`` handler: these
tests read the HTML the main pages serve. ``tests/e2e/test_headers.py`` loads the same
pages in Chromium and fails on any violation it reports.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from gammon import FixedDice
from matches import record
from matches.models import Game

pytestmark = pytest.mark.django_db


class InlineCode(HTMLParser):
    """Collects what a ``'self'``-only policy would block, and every script/style URL."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocked: list[str] = []
        self.urls: list[str] = []
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, _ in attrs:
            if name == "style" or name.startswith("on"):
                self.blocked.append(f"<{tag} {name}=…>")
        if tag == "style":
            self.blocked.append("<style>")
        if tag == "script":
            if values.get("src"):
                self.urls.append(values["src"] or "")
            elif (values.get("type") or "text/javascript") in ("text/javascript", "module"):
                self._script = ""
        if tag == "link" and values.get("rel") == "stylesheet":
            self.urls.append(values.get("href") or "")

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            if self._script.strip():
                self.blocked.append(f"<script>{self._script.strip()[:60]}…")
            self._script = None


def inline_code(html: str) -> InlineCode:
    parser = InlineCode()
    parser.feed(html)
    return parser


@pytest.fixture
def game(player: User, opponent: User, monkeypatch: pytest.MonkeyPatch) -> Game:
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    assert match.current_game is not None
    return match.current_game


def pages(game: Game) -> list[str]:
    mover = game.match.player(game.turn_color)
    return [
        "/",
        reverse("dashboard"),
        reverse("game_detail", args=[game.pk]),
        reverse("game_board_svg", args=[game.pk]),
        reverse("match_detail", args=[game.match_id]),
        reverse("challenge_list"),
        reverse("challenge_new"),
        reverse("profile"),
        reverse("notifications"),
        reverse("vacations"),
        reverse("player_detail", args=[mover.username]),
        reverse("stats_site"),
        reverse("stats_leaderboard"),
        reverse("stats_dice"),
        reverse("stats_player_dice", args=[mover.username]),
        reverse("api_docs"),
        reverse("account_email"),
        reverse("account_change_password"),
    ]


def signed_in(game: Game) -> Client:
    client = Client()
    client.force_login(game.match.player(game.turn_color))
    return client


def test_every_page_sends_a_self_only_content_security_policy(game: Game) -> None:
    client = signed_in(game)
    for path in [*pages(game), "/api/docs/?script=", "/api/schema/"]:
        response = client.get(path)
        assert response.status_code == 200, path
        policy = dict(
            (d.split()[0], d.split()[1:]) for d in response["Content-Security-Policy"].split(";")
        )
        for directive in ("default-src", "script-src", "style-src", "connect-src"):
            assert policy[directive] == ["'self'"], (path, directive, policy)
        assert policy["object-src"] == policy["frame-ancestors"] == ["'none'"], path
        assert policy["img-src"] == ["'self'", "data:"], path


def test_every_page_sends_a_permissions_policy(game: Game, client: Client) -> None:
    for response in (client.get("/"), signed_in(game).get(pages(game)[2])):
        features = dict(f.split("=") for f in response["Permissions-Policy"].split(", "))
        for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
            assert features[feature] == "()", features


def test_the_pages_carry_no_inline_script_or_style(game: Game) -> None:
    client = signed_in(game)
    for path in pages(game):
        found = inline_code(client.get(path).content.decode())
        assert found.blocked == [], f"{path}: {found.blocked}"


def test_the_pages_of_visitors_and_the_admin_carry_no_inline_script_or_style(
    client: Client,
) -> None:
    for path in ("/", reverse("account_login"), reverse("account_signup"), "/admin/login/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "Content-Security-Policy" in response, path
        found = inline_code(response.content.decode())
        assert found.blocked == [], f"{path}: {found.blocked}"


def test_the_api_docs_load_swagger_ui_from_the_site(client: Client) -> None:
    found = inline_code(client.get(reverse("api_docs")).content.decode())
    assert found.blocked == []
    assert any("swagger-ui-bundle.js" in url for url in found.urls), found.urls
    assert all(url.startswith("/") for url in found.urls), found.urls  # no CDN
    start_up = next(url for url in found.urls if "script" in url and "static" not in url)
    script = client.get(start_up)
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle(" in script.content
    bundle = next(url for url in found.urls if url.endswith("swagger-ui-bundle.js"))
    assert client.get(bundle).status_code == 200


def test_the_api_docs_serve_redoc_from_the_site_with_a_nonce_not_unsafe_inline(
    client: Client,
) -> None:
    response = client.get(reverse("api_redoc"))
    assert response.status_code == 200
    page = response.content.decode()
    found = inline_code(page)
    assert found.blocked == []
    assert all(url.startswith("/") for url in found.urls), found.urls  # no CDN, no fonts
    assert any(url.endswith("redoc.standalone.js") for url in found.urls), found.urls
    policy = dict(
        (d.split()[0], d.split()[1:]) for d in response["Content-Security-Policy"].split(";")
    )
    nonce = page.split('data-nonce="')[1].split('"')[0]
    assert f"'nonce-{nonce}'" in policy["style-src"]
    assert "'unsafe-inline'" not in policy["style-src"] + policy["script-src"]
    assert policy["script-src"] == ["'self'"]
    for url in found.urls:
        assert client.get(url).status_code == 200, url


def test_the_admin_pages_send_the_policy_and_carry_no_inline_code(game: Game) -> None:
    staff = User.objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(staff)
    for path in (
        reverse("admin:index"),
        reverse("admin:accounts_user_changelist"),
        reverse("admin:accounts_user_change", args=[game.match.white_id]),
        reverse("admin:matches_game_changelist"),
        reverse("admin:matches_game_change", args=[game.pk]),
        reverse("admin:matches_match_change", args=[game.match_id]),
        reverse("admin:moderation_report_changelist"),
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "script-src 'self'" in response["Content-Security-Policy"], path
        found = inline_code(response.content.decode())
        assert found.blocked == [], f"{path}: {found.blocked}"
