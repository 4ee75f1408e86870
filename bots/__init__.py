"""GNU Backgammon opponents: bot accounts at gnubg's named levels that play their turns
through the same services as a person (``matches.turns``, ``matches.endings``), each
decision made by gnubg (:mod:`gnubg_bridge.decisions`) in a task on the ``bots`` queue.
"""
