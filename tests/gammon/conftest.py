from hypothesis import settings

# Boards with more than a thousand plays (1-1 on a spread board) take milliseconds, not
# microseconds: a per-example deadline would only make the suite flaky.
settings.register_profile("rules", deadline=None, max_examples=150)
settings.load_profile("rules")
