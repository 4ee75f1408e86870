"""One error shape for the whole API: ``{"code", "detail"}`` (+ ``fields``).

``exception_handler`` is DRF's ``EXCEPTION_HANDLER``; the ``handler*`` views are
Django's error handlers (backgammon/urls.py), which answer that shape under /api/ and
Django's own pages elsewhere.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import exceptions, serializers, views
from rest_framework.response import Response

from backgammon.errors import ServiceError


@extend_schema_serializer(
    description="Every error answer has this body. `code` is stable and meant for programs; "
    "`detail` is for people, in the request's language."
)
class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine-readable reason, e.g. `stale`.")
    detail = serializers.CharField(help_text="Human-readable, in the request's language.")
    # DRF's metaclass moves a declared field into _declared_fields, so this does not
    # shadow Serializer.fields at run time; the stubs see a plain class attribute.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="For malformed bodies: the messages per field.",
    )


def error_body(code: str, detail: object) -> dict[str, str]:
    return {"code": code, "detail": str(detail)}


def _flat_field_errors(detail: Any) -> dict[str, list[str]]:
    """Field errors as ``{field: [message, ...]}``, whatever DRF nested inside."""
    if not isinstance(detail, dict):
        detail = {"non_field_errors": detail}
    flat: dict[str, list[str]] = {}
    for field, messages in detail.items():
        if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
            flat[str(field)] = list(dict.fromkeys(str(m) for m in messages))
        else:
            flat[str(field)] = [str(messages)]
    return flat


def too_large_body() -> dict[str, str]:
    """413's body: the limit is ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""
    detail = gettext("The request body is too large: at most %(limit)s bytes are accepted.")
    return error_body("too_large", detail % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Give every refusal the same body: ``{"code", "detail"}`` (+ ``fields`` when malformed).

    Service errors keep their own status and code, and say when to try again
    (``Retry-After``) when they know. The message is rendered here, while the request's
    language is active, so a Spanish player reads Spanish. Anything else (a bug) is left to
    Django, whose ``handler500`` answers JSON under /api/.
    """
    if isinstance(exc, ServiceError):
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return Response(error_body(exc.code, exc), status=exc.status, headers=headers)
    if isinstance(exc, RequestDataTooBig):  # raised when the view first reads request.data
        return Response(too_large_body(), status=413)
    response = views.exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            **error_body("invalid", _("The request is malformed: see the fields.")),
            "fields": _flat_field_errors(exc.detail),
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        detail = exc.detail if isinstance(exc.detail, str) else exc.default_detail
        response.data = error_body(str(code), detail)
    elif isinstance(exc, Http404):
        response.data = error_body("not_found", exceptions.NotFound.default_detail)
    else:  # Django's PermissionDenied
        response.data = error_body("permission_denied", exceptions.PermissionDenied.default_detail)
    return response


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request Django refused outside a DRF view (e.g. a body over the upload limit)."""
    if not is_api(request):
        return defaults.bad_request(request, exception)  # type: ignore[arg-type]
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse(too_large_body(), status=413)
    return JsonResponse(error_body("bad_request", exceptions.ParseError.default_detail), status=400)


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if not is_api(request):
        return defaults.permission_denied(request, exception)  # type: ignore[arg-type]
    detail = exceptions.PermissionDenied.default_detail
    return JsonResponse(error_body("permission_denied", detail), status=403)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """An unknown URL under /api/ is the API's JSON 404, like an unknown object."""
    if not is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse(error_body("not_found", exceptions.NotFound.default_detail), status=404)


def handler500(request: HttpRequest) -> HttpResponse:
    """A bug under /api/ still answers the error shape (Django has logged it)."""
    if not is_api(request):
        return defaults.server_error(request)
    detail = exceptions.APIException.default_detail
    return JsonResponse(error_body("server_error", detail), status=500)
