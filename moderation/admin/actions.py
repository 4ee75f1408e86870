"""The moderators' actions on one object in the admin: a form with a required reason,
then an action of ``moderation``; a refusal is the form again with the refusal's status."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from accounts.models import User
from backgammon.errors import ServiceError


class ActionViewsMixin:
    """Moderators' actions on one object: a form with a required reason, then a service.

    Each action is ``(name, title, permission, form class)``; ``do_action(moderator, name,
    obj, form)`` calls the service and returns the success message. The form page is
    ``<object id>/<name>/`` and the change page links to it.
    """

    object_actions: list[tuple[str, Any, str, type[forms.Form]]] = []

    def get_urls(self) -> list[URLPattern]:
        meta = self.model._meta  # type: ignore[attr-defined]
        own = [
            path(
                f"<path:object_id>/{name}/",
                self.admin_site.admin_view(self._action_view(name)),  # type: ignore[attr-defined]
                name=f"{meta.app_label}_{meta.model_name}_{name}",
            )
            for name, _title, _perm, _form in self.object_actions
        ]
        return own + super().get_urls()  # type: ignore[misc]

    def object_action_links(self, request: HttpRequest, obj: Model) -> list[tuple[str, str]]:
        meta = obj._meta
        return [
            (str(title), reverse(f"admin:{meta.app_label}_{meta.model_name}_{name}", args=[obj.pk]))
            for name, title, perm, _form in self.object_actions
            if request.user.has_perm(perm) and self.action_available(name, obj)
        ]

    def action_available(self, name: str, obj: Model) -> bool:
        return True

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        raise NotImplementedError

    def _action_view(self, name: str) -> Callable[..., HttpResponse]:
        _name, title, perm, form_class = next(a for a in self.object_actions if a[0] == name)

        def view(request: HttpRequest, object_id: str) -> HttpResponse:
            moderator = request.user  # admin_view let only signed-in staff through
            if not isinstance(moderator, User) or not moderator.has_perm(perm):
                raise PermissionDenied
            model = self.model  # type: ignore[attr-defined]
            obj = get_object_or_404(model, pk=object_id)
            form = form_class(request.POST or None)
            status = 200  # a refused form: 400 (RefusedFormStatusMiddleware)
            if request.method == "POST" and form.is_valid():
                try:
                    done = self.do_action(moderator, name, obj, form)
                except ServiceError as error:
                    form.add_error(None, str(error))
                    status = error.status  # a stake's 403, a match already over's 409
                else:
                    self.message_user(request, done, messages.SUCCESS)  # type: ignore[attr-defined]
                    meta = model._meta
                    return HttpResponseRedirect(
                        reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
                    )
            context = {
                **self.admin_site.each_context(request),  # type: ignore[attr-defined]
                "title": title,
                "subtitle": str(obj),
                "opts": model._meta,
                "original": obj,
                "form": form,
                "action_name": name,
            }
            return TemplateResponse(
                request, "admin/moderation/action_form.html", context, status=status
            )

        return view

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        obj = kwargs.get("obj")
        context["moderation_actions"] = (
            self.object_action_links(request, obj) if obj is not None else []
        )
        return super().render_change_form(request, context, *args, **kwargs)  # type: ignore[misc]
