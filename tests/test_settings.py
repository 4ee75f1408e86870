"""The environment helpers behind backgammon/settings.py fail loudly on bad values."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from backgammon.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    parse_email_url,
    parse_redis_url,
    parse_site_url,
)


def test_booleans_accept_the_usual_spellings() -> None:
    assert env_bool("X", False, {"X": "Yes"}) is True
    assert env_bool("X", True, {"X": "0"}) is False
    assert env_bool("X", True, {}) is True


@pytest.mark.parametrize(
    "call",
    [
        lambda: env_bool("DEBUG", True, {"DEBUG": "maybe"}),
        lambda: env_int("PORT", 1, {"PORT": "eighty"}),
        lambda: env_int("N", 1, {"N": "-3"}, minimum=0),
        lambda: env_choice("DJANGO_ENV", "development", {"development"}, {"DJANGO_ENV": "prod"}),
        lambda: parse_redis_url("REDIS_URL", "localhost:6379"),
        lambda: parse_site_url("SITE_URL", "example.org"),
        lambda: parse_email_url("gmail"),
        lambda: parse_email_url("smtp://"),
    ],
)
def test_bad_values_raise_improperly_configured(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ImproperlyConfigured):
        call()


def test_lists_are_comma_separated() -> None:
    assert env_list("HOSTS", ["a"], {"HOSTS": "x.org, y.org,,"}) == ["x.org", "y.org"]
    assert env_list("HOSTS", ["a"], {}) == ["a"]


def test_email_url_console_prints_one_line_per_email_unless_asked_for_them_whole() -> None:
    assert parse_email_url("console:")["EMAIL_BACKEND"] == "backgammon.mail.OneLineConsoleBackend"
    whole = "django.core.mail.backends.console.EmailBackend"
    assert parse_email_url("console:?full=1")["EMAIL_BACKEND"] == whole
    assert parse_email_url("console:?full=0")["EMAIL_BACKEND"].endswith("OneLineConsoleBackend")


def test_email_url_smtp_reads_host_port_and_credentials() -> None:
    config = parse_email_url("smtp://me%40x.org:s%3Acret@mail.x.org:2525")
    assert config["EMAIL_HOST"] == "mail.x.org"
    assert config["EMAIL_PORT"] == 2525
    assert config["EMAIL_HOST_USER"] == "me@x.org"
    assert config["EMAIL_HOST_PASSWORD"] == "s:cret"
    assert not config["EMAIL_USE_TLS"]


def test_email_url_tls_variants() -> None:
    assert parse_email_url("smtp+tls://mail.x.org")["EMAIL_PORT"] == 587
    assert parse_email_url("smtp://mail.x.org?tls=1")["EMAIL_USE_TLS"] is True
    assert parse_email_url("smtps://mail.x.org")["EMAIL_USE_SSL"] is True


@pytest.mark.parametrize(
    ("url", "flag", "options"),
    [
        ("postgres://u@h/d", None, {"server_side_binding": True, "prepare_threshold": 5}),
        ("postgres://u@h/d", "false", {"server_side_binding": True, "prepare_threshold": None}),
        # SQLite: writers queue for the lock (tests/matches/test_sqlite_concurrency.py).
        ("sqlite:///x.sqlite3", None, {"transaction_mode": "IMMEDIATE", "timeout": 20}),
    ],
)
def test_postgresql_binds_on_the_server_and_prepares_unless_told_not_to(
    url: str, flag: str | None, options: dict
) -> None:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env["DATABASE_URL"] = url
    if flag is not None:
        env["DATABASE_PREPARED_STATEMENTS"] = flag
    code = (
        "import json, backgammon.settings as s;"
        "print(json.dumps(s.DATABASES['default'].get('OPTIONS', {})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == options


@pytest.mark.parametrize("plies", ["3", "-1", "two"])
def test_an_analysis_level_out_of_0_to_2_is_refused(plies: str) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "ANALYSIS_PLIES": plies}
    run = subprocess.run(
        [sys.executable, "-c", "import backgammon.settings"],
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0 and "ANALYSIS_PLIES" in run.stderr


def settings_of(env: dict[str, str], *names: str) -> dict[str, object]:
    """Some of backgammon.settings, as a process started with ``env`` (SITE_URL and PORT
    taken from it alone) reads them."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    base = {k: v for k, v in os.environ.items() if k not in {"SITE_URL", "PORT"}}
    code = (
        "import json, backgammon.settings as s;"
        f"print(json.dumps({{n: getattr(s, n) for n in {list(names)!r}}}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, **env},
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_site_url_follows_port_when_it_is_not_set() -> None:
    """Issue 26: with ``PORT=8001 python3 dev.py run`` the e-mails linked to port 8000."""
    assert settings_of({}, "SITE_URL") == {"SITE_URL": "http://127.0.0.1:8000"}
    followed = settings_of({"PORT": "8001"}, "SITE_URL", "CSRF_TRUSTED_ORIGINS")
    assert followed == {
        "SITE_URL": "http://127.0.0.1:8001",
        "CSRF_TRUSTED_ORIGINS": ["http://127.0.0.1:8001"],
    }
    site = {"SITE_URL": "https://bg.example.org/", "PORT": "not a port"}  # a host's own PORT
    assert settings_of(site, "SITE_URL") == {"SITE_URL": "https://bg.example.org"}
