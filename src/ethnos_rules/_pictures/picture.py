"""A plain-text picture of a state, for people reading a game: ``str(state)``."""

from __future__ import annotations

from .._rules.components import KINGDOMS
from .._rules.scoring import game_result
from .._rules.state import GameState
from .._rules.words import ROMAN, cards_text, plural


def _next(state: GameState) -> str:
    """What comes next; at the end, who won and by which rule (GAME-1..3)."""
    if not state.pending.terminal:
        return state.pending.describe()
    return f"the game is over. {game_result(state)}"


def describe_state(state: GameState) -> str:
    """A several-line summary: Age, tribes, tokens, row, deck, and each player."""
    lines = [
        f"Age {ROMAN[state.age]} of {ROMAN[state.config.ages]}; next: {_next(state)}",
        "tribes: " + (" ".join(t.code for t in state.tribes) or "-"),
        "tokens: "
        + "  ".join(
            f"{k.label} {'/'.join(map(str, t))}"
            for k, t in zip(state.rules.kingdoms, state.tokens, strict=False)
        ),
        f"row: {cards_text(state.row)}",
        f"deck: {plural(sum(state.deck), 'Ally card')} ({state.top_left} in the top part),"
        f" {plural(state.dragons_in_deck, 'Dragon')}; Dragons drawn: {state.dragons_drawn}",
    ]
    for seat, p in enumerate(state.players):
        markers = ", ".join(
            f"{k.label} {n}" for k, n in zip(KINGDOMS, p.kingdoms, strict=True) if n
        )
        extra = []
        if p.merfolk is not None:
            extra.append(f"merfolk track {p.merfolk}")
        if p.horde:
            extra.append("horde " + "/".join(c.label for c in p.horde))
        if p.trolls:
            extra.append("trolls " + "/".join(map(str, p.trolls)))
        if state.giant_holder == seat:
            extra.append("giant token")
        lines.append(
            f"seat {seat}: " + ", ".join([f"glory {p.glory}", f"supply {p.supply}", *extra])
        )
        lines.append(f"  markers: {markers or '-'}")
        lines.append(f"  hand: {cards_text(p.hand)}")
        if p.bands:
            lines.append("  bands: " + " | ".join(str(b) for b in p.bands))
    return "\n".join(lines)
