"""Exhaustive checking of small games: every reachable state of small scopes, against the rules
written out again by brute force (issue 37). ``python -m exhaustive`` (from ``tests/``, as
``make exhaustive`` runs it) searches every scope; ``tests/test_exhaustive.py`` the smallest."""
