"""drf-spectacular post-processing: the errors every operation may answer."""

from __future__ import annotations

from typing import Any

ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}

#: (status, when it applies, description): ``always``, ``object`` (an operation with a
#: path parameter, or a page number), ``body`` (an operation with a request body) or
#: ``change`` (any method but GET, HEAD and OPTIONS: the player's actions a minute count).
STANDARD_ERRORS = [
    ("400", "body", "Malformed body (code `invalid` with `fields`, or `parse_error`)."),
    (
        "401",
        "always",
        "Not authenticated, or a bad token (code `not_authenticated` or `authentication_failed`).",
    ),
    ("403", "always", "Not allowed; e.g. the account is suspended (code `suspended`)."),
    ("404", "object", "No such object, or page (code `not_found`)."),
    ("413", "body", "The body is larger than the server accepts (code `too_large`)."),
    ("415", "body", "The body is not JSON (code `unsupported_media_type`)."),
    (
        "429",
        "change",
        "A limit reached (code `too_many_…`, e.g. `too_many_api_actions`); `Retry-After` says "
        "in how many seconds to try again, when that is known.",
    ),
]


def document_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Every operation lists the errors it may answer, with the ``Error`` body.

    Any request may carry a bad token (401) or come from a suspended player's session
    (403); an operation with a path parameter may name no object, and a paginated one
    no page (404); one with a body
    may get one that is malformed (400), too large (413) or not JSON (415); one that
    changes something may meet a limit (429). What an endpoint documents itself
    (``extend_schema(responses=...)``) is kept.
    """
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            applies = {
                "always": True,
                "object": any(
                    p.get("in") == "path" or (p.get("in"), p.get("name")) == ("query", "page")
                    for p in operation.get("parameters", [])
                ),
                "body": "requestBody" in operation,
                "change": method.lower() not in {"get", "head", "options"},
            }
            responses = operation["responses"]
            for status, when, description in STANDARD_ERRORS:
                if applies[when] and status not in responses:
                    responses[status] = {"description": description, "content": ERROR_CONTENT}
            operation["responses"] = dict(sorted(responses.items()))
    return result
