"""The contract every API endpoint keeps, whichever app it lives in.

- ``parsers``: bodies are JSON only, and a body that cannot be read is a 400, never a
  500 (JSON nested deeper than Python can recurse is refused like a syntax error). DRF's
  ``DEFAULT_PARSER_CLASSES``; this module imports nothing of DRF's views, which read the
  setting while they are defined.
- ``errors``: every refusal is ``{"code", "detail"}`` (+ ``fields`` for a malformed
  body), the detail in the caller's language. Inside a DRF view ``exception_handler``
  (DRF's ``EXCEPTION_HANDLER``) gives it; what Django answers outside a DRF view under
  ``/api/`` (an unknown URL, a body over the upload limit, a crash) goes through its
  ``handler400/403/404/500``, which backgammon/urls.py installs.
- ``views``: the base of every API view (errors in the user's language for token users).
- ``schema``: a drf-spectacular hook that lists in the schema the errors every operation
  may answer, in that shape.
"""
