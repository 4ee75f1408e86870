"""ASGI entry point: pages, the API and the live sockets from one server process.

    uvicorn backgammon.asgi:application --workers 4      (production; see README)
    python3 dev.py run                                   (development, one process)

HTTP goes to Django as usual. WebSockets (``/ws/live/``) go to the ``live`` app's routes,
signed in by the session cookie (Channels' ``AuthMiddlewareStack``), from this site's own
pages only (``AllowedHostsOriginValidator``). The routes are named by dotted path: the
project package imports no app.
"""

import os
import warnings
from importlib import import_module

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon.settings")

http = get_asgi_application()  # sets Django up before anything imports a model

# WhiteNoise (a middleware) serves the static files through Django's sync path, whose file
# iterators Django's ASGI handler then reads in a thread, and warns that it does so. That
# is how WhiteNoise runs under ASGI; the files are small and cached by the browsers.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

websocket_routes = import_module("live.routing").websocket_urlpatterns

application = ProtocolTypeRouter(
    {
        "http": http,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_routes))),
    }
)
