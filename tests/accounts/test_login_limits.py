"""Failed log-ins are limited per account and address, so one player's mistakes (or an
attacker's guesses) never lock out the other players at that address, nor the player
elsewhere; and the client's address comes from X-Forwarded-For only behind proxies we
were told to trust (TRUSTED_PROXY_COUNT)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts.adapters import address_block, client_ip
from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

REFUSED = "Too many failed login attempts"
ROOT = Path(__file__).resolve().parents[2]


def log_in(client: Client, login: str, password: str, **headers: str) -> tuple[bool, bool]:
    """(signed in, refused by a limit)"""
    response = client.post(
        reverse("account_login"), {"login": login, "password": password}, headers=headers
    )
    return response.status_code == 302, REFUSED in response.content.decode()


def test_wrong_passwords_for_one_account_do_not_lock_out_the_others_at_that_address(
    player: User, opponent: User
) -> None:
    office = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(11):
        assert log_in(office, "alice", "wrong")[0] is False
    assert log_in(office, "bob", PASSWORD) == (True, False)


def test_an_account_waits_only_at_the_address_it_failed_from(player: User) -> None:
    there = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(5):
        assert log_in(there, "alice", "wrong") == (False, False)
    assert log_in(there, "alice", PASSWORD) == (False, True)
    assert log_in(Client(REMOTE_ADDR="203.0.113.9"), "alice", PASSWORD) == (True, False)


class Clock:
    """The clock of allauth's rate limits, moved by the test."""

    monotonic = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now


def test_one_address_failing_for_many_accounts_is_capped(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five guesses for each of many accounts (a password spray) stop at the address cap,
    300 failures an hour, here within 13 minutes (allauth's 30 log-ins a minute too)."""
    clock = Clock()
    monkeypatch.setattr("allauth.core.internal.ratelimit.time", clock)
    spray = Client(REMOTE_ADDR="198.51.100.7")
    refused_after = None
    for attempt in range(400):
        if attempt % 25 == 0:
            clock.now += 61
        signed_in, refused = log_in(spray, f"someone{attempt // 5}", "guess")
        assert not signed_in
        if refused:
            refused_after = attempt
            break
    assert refused_after == 300
    assert log_in(spray, "alice", PASSWORD) == (False, True)
    assert log_in(Client(REMOTE_ADDR="203.0.113.9"), "alice", PASSWORD) == (True, False)


def test_behind_a_trusted_proxy_the_limit_is_per_forwarded_address(
    settings: Settings, player: User
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    for _ in range(5):
        log_in(proxy, "alice", "wrong", x_forwarded_for="198.51.100.7")
    assert log_in(proxy, "alice", PASSWORD, x_forwarded_for="198.51.100.7") == (False, True)
    assert log_in(proxy, "alice", PASSWORD, x_forwarded_for="203.0.113.9") == (True, False)


def test_without_trusted_proxies_a_forged_header_does_not_lift_the_limit(player: User) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    for n in range(5):
        log_in(client, "alice", "wrong", x_forwarded_for=f"192.0.2.{n}")
    assert log_in(client, "alice", PASSWORD, x_forwarded_for="192.0.2.99") == (False, True)


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "192.0.2.1", "10.0.0.2"),  # not trusted: anyone can send the header
        (1, None, "10.0.0.2"),  # reached directly, past the proxy
        (1, "192.0.2.1", "192.0.2.1"),
        (1, "6.6.6.6, 192.0.2.1", "192.0.2.1"),  # the client's own entry is ignored
        (2, "6.6.6.6, 192.0.2.1, 10.0.0.9", "192.0.2.1"),
        (2, "192.0.2.1", "192.0.2.1"),  # fewer entries than proxies: the leftmost
        (1, "not-an-address", "10.0.0.2"),
        (1, " , ", "10.0.0.2"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address_is_read_from_trusted_proxies_only(
    settings: Settings, proxies: int, forwarded: str | None, expected: str
) -> None:
    settings.TRUSTED_PROXY_COUNT = proxies
    headers = {} if forwarded is None else {"x-forwarded-for": forwarded}
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", headers=headers)
    assert client_ip(request) == expected


def test_an_ipv6_client_is_one_64_block() -> None:
    assert address_block("2001:db8:1:2:aaaa::1") == address_block("2001:db8:1:2:bbbb::9")
    assert address_block("2001:db8:1:2::1") != address_block("2001:db8:1:3::1")
    assert address_block("192.0.2.1") == "192.0.2.1"


def _settings_with(**environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRUSTED_PROXY_COUNT"}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from backgammon import settings; print(settings.TRUSTED_PROXY_COUNT)",
        ],
        cwd=ROOT,
        env={**env, **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_trusted_proxy_count_comes_from_the_environment_and_fails_loudly() -> None:
    assert _settings_with().stdout.strip() == "0"
    assert _settings_with(TRUSTED_PROXY_COUNT="2").stdout.strip() == "2"
    for bad in ("-1", "one"):
        done = _settings_with(TRUSTED_PROXY_COUNT=bad)
        assert done.returncode != 0 and "TRUSTED_PROXY_COUNT" in done.stderr
