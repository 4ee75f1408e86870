"""The path converter of the site's pages for a row's id or number: ``<id:game_id>``.

Django's ``<int:...>`` takes any run of digits, and a number past what a 64-bit column
holds then reaches the database driver: SQLite's raises ``OverflowError``, PostgreSQL
answers "out of range", a 500 either way (Django guards only a lookup on an integer
field itself, not one through a foreign key, such as ``Entry.tournament_id``). This one
refuses such a number in the URL resolver, which makes it the 404 of a page that does
not exist. (The API's ``<object_id:...>`` does the same for JSON 404s.)
"""

from django.urls import register_converter

from backgammon.inputs import ID_LIMIT


class RowIdConverter:
    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number >= ID_LIMIT:
            raise ValueError(f"{value} is past any row's id")  # no match: a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowIdConverter, "id")
