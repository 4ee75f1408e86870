"""OpenAPI descriptions of the moderation-aware authentication classes (drf-spectacular).

They are DRF's session and token schemes with a suspension check; the schema says so.
"""

from drf_spectacular.authentication import SessionScheme, TokenScheme


class SuspensionAwareSessionScheme(SessionScheme):
    target_class = "moderation.authentication.SessionAuthentication"


class SuspensionAwareTokenScheme(TokenScheme):
    target_class = "moderation.authentication.TokenAuthentication"
