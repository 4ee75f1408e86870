"""GNU Backgammon as a service of the site: match analysis and bot decisions.

This package drives Debian's ``gnubg`` program through its embedded Python
(``gnubg -t -q -p script``). It imports no Django and no app: the apps call it,
and its answers are plain dataclasses. ``process`` finds and runs gnubg; the
modules beside it each hold one use of it.
"""
