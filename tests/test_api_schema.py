"""The OpenAPI schema is generated without a warning: a bot reads nothing else."""

import pytest
from django.core.management import call_command


def test_the_schema_validates_without_warnings(tmp_path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "/api/games/{id}/move" in text
    assert "tokenAuth" in text and "cookieAuth" in text


@pytest.mark.parametrize("path", ["/api/schema/"])
def test_the_schema_is_served(client, path: str) -> None:
    assert client.get(path).status_code == 200
