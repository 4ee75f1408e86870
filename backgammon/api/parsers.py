"""The API's one body parser (DRF's ``DEFAULT_PARSER_CLASSES``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, except that a body nested too deeply to decode is a 400 too.

    Python's decoder recurses once per level and raises ``RecursionError`` near a
    thousand levels, which DRF lets through as a 500. No request of ours nests more than
    three levels, so such a body is malformed; nothing has been read from it yet.
    """

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_("The JSON body is nested too deeply.")) from None
