"""Build a concrete position in the middle of an Age, for examples, tests and puzzles.

The deck is whatever the position does not place elsewhere, so cards are conserved by
construction; every other invariant is checked (:func:`~ethnos_rules.check_state`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from ._components import Card, Colour, Kingdom
from ._errors import SetupError
from ._invariants import InvalidStateError, check_state
from ._options import Options
from ._setup import TokenLayout, new_game
from ._state import Band, GameState, PlayerState
from ._turn import TurnPending

Cards = str | Sequence[str | Card]


def position(
    players: int,
    tribes: Sequence[str],
    *,
    to_move: int = 0,
    age: int = 1,
    hands: Mapping[int, Cards] | None = None,
    row: Cards = (),
    bands: Mapping[int, Sequence[str]] | None = None,
    kingdoms: Mapping[int, Mapping[str, int]] | None = None,
    glory: Mapping[int, int] | None = None,
    merfolk: Mapping[int, int] | None = None,
    horde: Mapping[int, Sequence[str]] | None = None,
    trolls: Mapping[int, Sequence[int]] | None = None,
    giant: tuple[int, int] | None = None,
    tokens: TokenLayout | None = None,
    dragons_drawn: int = 0,
    top_left: int | None = None,
    first_player: int | None = None,
    last_dragon: int | None = None,
    options: Options | None = None,
) -> GameState:
    """A position where the player ``to_move`` starts a turn in Age ``age``.

    Cards are given as text (``"ELF-red ELF-red SKE"``) or lists of codes; bands as their text
    without the verb (``"*ELF-red ELF-blue"``); kingdoms by name. What is not given is empty.
    The deck holds every other card of the tribes in play; ``top_left`` cards of it are in the
    top part (default: half of it, as just after AGE-4).

    Args:
        giant: ``(holder, size)`` of the Giant token and the largest Giant-led band.
        tokens: Glory token layout as for :func:`~ethnos_rules.new_game`; by default the sorted
            tokens are dealt round the kingdoms (Althea gets the 1st, 7th and 13th lowest, …).

    Raises:
        SetupError: for arguments that name unknown things or build an impossible position.

    >>> from ethnos_rules import position, legal_actions
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
    ...                  hands={0: "DWA-purple DWA-red DWA-blue"}, kingdoms={0: {"Duris": 2}})
    >>> for action in legal_actions(state)[-3:]:
    ...     print(action)
    band *DWA-purple DWA-red DWA-blue
    band *DWA-red DWA-purple DWA-blue
    band *DWA-blue DWA-purple DWA-red
    """
    options = options or Options()
    base = new_game(
        players,
        tribes=tribes,
        options=options,
        first_player=to_move if first_player is None else first_player,
        glory_tokens=tokens or _default_tokens(options, players),
    )
    rules = base.rules
    if not 0 <= to_move < players or not 1 <= age <= base.config.ages:
        raise SetupError("SETUP-1", "to_move must be a seat and age an Age of this game")
    try:
        seats = [
            _player(base, seat, hands, bands, kingdoms, glory, merfolk, horde, trolls)
            for seat in range(players)
        ]
        row_cards = _cards(base, row)
    except (KeyError, ValueError) as err:
        raise SetupError("SETUP-1", str(err.args[0] if err.args else err)) from None
    deck = list(rules.cards_of(base.tribes))
    for card in [*row_cards, *(c for p in seats for c in _all_cards(p))]:
        deck[card.index] -= 1
    state = attrs.evolve(
        base,
        players=tuple(seats),
        row=row_cards,
        deck=tuple(deck),
        age=age,
        dragons_drawn=dragons_drawn,
        dragons_in_deck=rules.dragons - dragons_drawn,
        top_left=sum(deck) // 2 if top_left is None else top_left,
        giant_holder=giant[0] if giant else None,
        giant_size=giant[1] if giant else 0,
        last_dragon=last_dragon,
        pending=TurnPending(to_move),
    )
    try:
        return check_state(state)
    except InvalidStateError as err:
        raise SetupError("SETUP-1", f"impossible position: {err.reason}") from None


def _default_tokens(options: Options, players: int) -> tuple[tuple[int, ...], ...]:
    pool = options.token_pool(players)
    return tuple(tuple(sorted(pool[k :: len(Kingdom)])) for k in range(len(Kingdom)))


def _cards(state: GameState, cards: Cards) -> tuple[Card, ...]:
    words = cards.split() if isinstance(cards, str) else cards
    found = [w if isinstance(w, Card) else state.rules.card(w) for w in words]
    for card in found:
        if card.tribe not in state.tribes:
            raise ValueError(f"{card} belongs to a tribe that is not in play")
    return tuple(sorted(found))


def _band(state: GameState, text: str) -> Band:
    words = text.split()
    leaders = [w for w in words if w.startswith("*")]
    if len(leaders) != 1:
        raise ValueError(f"band {text!r} needs exactly one Leader marked with '*'")
    words.remove(leaders[0])
    leader = _cards(state, [leaders[0][1:]])[0]
    return Band(leader, _cards(state, words))


def _player(
    state: GameState,
    seat: int,
    hands: Mapping[int, Cards] | None,
    bands: Mapping[int, Sequence[str]] | None,
    kingdoms: Mapping[int, Mapping[str, int]] | None,
    glory: Mapping[int, int] | None,
    merfolk: Mapping[int, int] | None,
    horde: Mapping[int, Sequence[str]] | None,
    trolls: Mapping[int, Sequence[int]] | None,
) -> PlayerState:
    start = state.players[seat]
    markers = [0] * len(Kingdom)
    for name, n in (kingdoms or {}).get(seat, {}).items():
        markers[Kingdom[name.upper()]] = n
    colours = tuple(sorted(Colour[c.upper()] for c in (horde or {}).get(seat, ())))
    position = (merfolk or {}).get(seat, 0) if start.merfolk is not None else None
    supply = start.supply - sum(markers) - len(colours)
    return PlayerState(
        hand=_cards(state, (hands or {}).get(seat, ())),
        bands=tuple(_band(state, b) for b in (bands or {}).get(seat, ())),
        glory=(glory or {}).get(seat, 0),
        supply=supply,
        kingdoms=tuple(markers),
        merfolk=position,
        horde=colours,
        trolls=tuple(sorted((trolls or {}).get(seat, ()))),
    )


def _all_cards(player: PlayerState) -> list[Card]:
    return [*player.hand, *(c for b in player.bands for c in b.cards)]
