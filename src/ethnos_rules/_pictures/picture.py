"""A plain-text picture of a state, for people reading a game: ``str(state)``."""

from __future__ import annotations

from .._rules.components import KINGDOMS
from .._rules.said import said, said_list, said_n, word
from .._rules.scoring import game_result
from .._rules.state import GameState
from .._rules.words import ROMAN, cards_text


def _next(state: GameState) -> str:
    """What comes next; at the end, who won and by which rule (GAME-1..3)."""
    if not state.pending.terminal:
        return state.pending.describe()
    return said("the game is over. {result}", result=str(game_result(state)))


def describe_state(state: GameState) -> str:
    """A several-line summary: Age, tribes, tokens, row, deck, and each player; each line a
    marked sentence, so that a reader may say it in another language
    (:func:`ethnos_rules.translate`, line by line).

    >>> from ethnos_rules import new_game
    >>> print(describe_state(new_game(2)).splitlines()[0])
    Age I of II; next: chance: choose a tribe
    """
    tokens = "  ".join(
        f"{k.label} {'/'.join(map(str, t))}"
        for k, t in zip(state.rules.kingdoms, state.tokens, strict=False)
    )
    lines: list[str] = [
        said(
            "Age {age} of {ages}; next: {next}",
            age=ROMAN[state.age],
            ages=ROMAN[state.config.ages],
            next=_next(state),
        ),
        said("tribes: {tribes}", tribes=" ".join(t.code for t in state.tribes) or "-"),
        said("tokens: {tokens}", tokens=tokens),
        said("row: {cards}", cards=cards_text(state.row)),
        said(
            "deck: {cards} ({top} in the top part), {dragons}; Dragons drawn: {drawn}",
            cards=said_n("{n} Ally card", "{n} Ally cards", sum(state.deck)),
            top=state.top_left,
            dragons=said_n("{n} Dragon", "{n} Dragons", state.dragons_in_deck),
            drawn=state.dragons_drawn,
        ),
    ]
    for seat in range(len(state.players)):
        lines += _player_lines(state, seat)
    return said_list(lines, "\n")


def _player_lines(state: GameState, seat: int) -> list[str]:
    p = state.players[seat]
    markers = ", ".join(f"{k.label} {n}" for k, n in zip(KINGDOMS, p.kingdoms, strict=True) if n)
    facts: list[str] = [
        said("glory {glory}", glory=p.glory),
        said("supply {supply}", supply=p.supply),
    ]
    if p.merfolk is not None:
        facts.append(said("merfolk track {space}", space=p.merfolk))
    if p.horde:
        facts.append(said("horde {spaces}", spaces="/".join(c.label for c in p.horde)))
    if p.trolls:
        facts.append(said("trolls {tokens}", tokens="/".join(map(str, p.trolls))))
    if state.giant_holder == seat:
        facts.append(word("giant token"))
    lines: list[str] = [
        said("seat {seat}: {facts}", seat=seat, facts=said_list(facts)),
        said("  markers: {markers}", markers=markers or "-"),
        said("  hand: {cards}", cards=cards_text(p.hand)),
    ]
    if p.bands:
        lines.append(said("  bands: {bands}", bands=" | ".join(str(b) for b in p.bands)))
    return lines
