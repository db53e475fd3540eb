"""``make stress``: the reliability suite against a real ``python -m workers serve`` (R40–R44).

Each part takes its sizes as parameters: ``python -m tests.stress`` runs them at full
size and prints the figures; ``test_short_versions.py`` runs each briefly in ``make test``.
"""
