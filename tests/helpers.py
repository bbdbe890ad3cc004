"""Helpers shared by the rule tests: explicit glory-token layouts and short ways to play."""

from __future__ import annotations

from typing import Any

from ethnos_rules import GameState, apply, legal_actions, parse_action, position

# Glory token layouts, given explicitly so every expected award can be read off here (lowest
# token on space I). 4–6 players use all 18 tokens (COMP-5): 0,0,2,2,4,4,4,4,6,6,6,6,6,8,8,8,10,10.
TOKENS_4P = {
    "Althea": [0, 4, 8],
    "Duris": [0, 4, 8],
    "Ithys": [2, 4, 6],
    "Pelagon": [6, 6, 8],
    "Rhea": [2, 6, 10],
    "Straton": [4, 6, 10],
}
# 2–3 players: the 4+ tokens 0,4,4,6,6,10 are removed (SETUP-4), leaving
# 0,2,2,4,4,6,6,6,8,8,8,10, two per kingdom.
TOKENS_SMALL = {
    "Althea": [0, 6],
    "Duris": [2, 6],
    "Ithys": [4, 8],
    "Pelagon": [6, 8],
    "Rhea": [2, 8],
    "Straton": [4, 10],
}


TRIBES_4P = ["DWA", "GIA", "MER", "ORC", "SKE", "TRO"]
TRIBES_SMALL = ["DWA", "GIA", "ORC", "SKE", "TRO"]
"""Tribe sets with every end-of-Age piece (Merfolk only with 4–6 players)."""


def tokens_for(players: int) -> dict[str, list[int]]:
    """The layout above for this player count."""
    return TOKENS_SMALL if players <= 3 else TOKENS_4P


def act(state: GameState, *texts: str) -> GameState:
    """Apply the actions written in the notation, in order."""
    for text in texts:
        state = apply(state, parse_action(text))
    return state


def legal(state: GameState) -> list[str]:
    """The legal actions as text."""
    return [str(a) for a in legal_actions(state)]


def end_age(state: GameState) -> GameState:
    """The player to move draws the third Dragon (needs ``dragons_drawn=2, top_left=0``)."""
    return act(state, "recruit deck", "reveal DRAGON")


def gains(state: GameState, seat: int) -> dict[str, int]:
    """Non-zero end-of-Age Glory of ``seat`` in the last finished Age, by source."""
    return {src: g for src, g in state.history[-1].gains[seat] if g}


def at_end(players: int = 4, tribes: list[str] | None = None, **kwargs: Any) -> GameState:
    """A position whose next deck draw (by the player to move) is the third Dragon of the Age,
    with the token layouts above; tribes default to :data:`TRIBES_4P` / :data:`TRIBES_SMALL`."""
    if tribes is None:
        tribes = TRIBES_SMALL if players <= 3 else TRIBES_4P
    kwargs.setdefault("tokens", tokens_for(players))
    return position(players, tribes, dragons_drawn=2, top_left=0, **kwargs)
