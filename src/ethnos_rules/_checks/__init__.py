"""Checks that a state is one a legal game can reach: the invariants every reachable state keeps,
used to refuse corrupt snapshots and built positions. Above the rules, which never import it."""
