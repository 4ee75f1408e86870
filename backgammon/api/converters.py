"""The path converter every API URL uses for an object's id."""

from django.urls import register_converter


class ObjectIdConverter:
    """Any path segment; a non-number (or one out of range) becomes 0, which no row has.

    So ``/api/games/abc/`` is the API's JSON 404, not Django's HTML page, and a huge
    number never reaches the database driver.
    """

    regex = "[^/]+"

    def to_python(self, value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            return 0
        return number if 0 < number < 2**31 else 0

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(ObjectIdConverter, "object_id")
