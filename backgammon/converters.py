"""The path converter of the site's pages for a row's id or number: ``<id:game_id>``.

Django's ``<int:...>`` takes any run of digits, and a number past what a 64-bit column
holds then reaches the database driver: SQLite's raises ``OverflowError``, PostgreSQL
answers "out of range", a 500 either way (Django guards only a lookup on an integer
field itself, not one through a foreign key, such as ``Entry.tournament_id``). This one
refuses such a number in the URL resolver, which makes it the 404 of a page that does
not exist. (The API's ``<object_id:...>`` does the same for JSON 404s.)
"""

from django.urls import register_converter

from backgammon.inputs import positive_int


class RowIdConverter:
    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = positive_int(value)
        if number is None:  # 0, or past any row's id
            raise ValueError(f"{value[:30]} is no row's id")  # no match: a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowIdConverter, "id")
