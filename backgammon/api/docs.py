"""Redoc at /api/redoc/, beside Swagger UI at /api/docs/, both from the site's own files.

Redoc styles itself by writing ``<style>`` elements, which the site's policy
(``style-src 'self'``) refuses. This page alone allows them without
``'unsafe-inline'``: the elements Redoc writes once started carry the page's nonce
(``static/js/redoc.js`` passes it to ``Redoc.init``), and the two its bundle writes
as it loads, before it can know the nonce, are allowed by their hashes. Its search
runs in a worker started from a ``blob:`` URL. Its footer's logo, which it loads from
Redocly's CDN, stays refused: the docs load nothing from outside the site.
"""

from __future__ import annotations

from csp.constants import NONCE
from csp.decorators import csp_update
from drf_spectacular.views import SpectacularRedocView

#: The SHA-256 of what the bundle (drf-spectacular-sidecar's Redoc 2) writes before its
#: start: an empty element and its own stylesheet. tests/e2e/test_headers.py loads the
#: page in a browser, so an upgrade that changes them fails there, not in silence.
_BUNDLE_STYLE_HASHES = [
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",
]

redoc_view = csp_update(
    {"style-src": [NONCE, *_BUNDLE_STYLE_HASHES], "worker-src": ["'self'", "blob:"]}
)(SpectacularRedocView.as_view(url_name="api_schema"))
