"""Build a concrete position in the middle of an Age, for examples, tests and puzzles.

The deck is whatever the position does not place elsewhere, so cards are conserved by
construction; every other invariant is checked (:func:`~ethnos_rules.check_state`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .._checks.invariants import check_state
from .._rules.components import Card, Colour, Kingdom
from .._rules.errors import InvalidStateError, SetupError
from .._rules.notation import parse_band
from .._rules.options import Options, check_options
from .._rules.said import said
from .._rules.setup import TokenLayout, check_players, new_game, parse_named
from .._rules.state import Band, GameState, PlayerState
from .._rules.turn import TurnPending
from .._rules.words import given

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
    kingdoms: Mapping[int, Mapping[Any, int]] | None = None,
    glory: Mapping[int, int] | None = None,
    merfolk: Mapping[int, int] | None = None,
    horde: Mapping[int, Sequence[str | Colour]] | None = None,
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

    Cards are given as text (``"ELF-red ELF-red SKE"``) or lists of codes or
    :class:`~ethnos_rules.Card` objects; bands as their text without the verb
    (``"*ELF-red ELF-blue"``, the Leader starred); kingdoms by name (any case) or
    :class:`~ethnos_rules.Kingdom`; Horde spaces by colour name or :class:`~ethnos_rules.Colour`.
    Per-seat arguments map seats to values; a seat not named gets nothing. The deck holds every
    other card of the tribes in play, so cards are conserved by construction; every other
    invariant is checked.

    To end the Age from here, as its last Dragon would, use
    :func:`~ethnos_rules.end_age_now`; to see what that would award without ending it,
    :func:`~ethnos_rules.score_now`.

    Args:
        players: 2 to 6.
        tribes: The tribes in play, by code: ``["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]``
            (5 for 2–3 players, 6 for more, SETUP-3).
        to_move: The seat whose turn starts: ``to_move=2``.
        age: The Age, from 1 (``age=2``); 2–3 player games have two Ages (END-6).
        hands: Each seat's hand: ``hands={0: "ELF-red ELF-red", 1: ["DWA-blue"]}``.
        row: The face-up cards beside the board: ``row="DWA-blue SKE"``.
        bands: The bands each seat has played this Age:
            ``bands={0: ["*DWA-red DWA-blue", "*ELF-green"]}``.
        kingdoms: Each seat's markers by kingdom: ``kingdoms={1: {"Rhea": 2, "Althea": 1}}``.
        glory: Each seat's Glory so far: ``glory={0: 12, 3: 7}``.
        merfolk: Each seat's space on the Merfolk track, when Merfolk are in play:
            ``merfolk={0: 5}``.
        horde: The Horde spaces each seat's markers fill, when Orcs are in play:
            ``horde={2: ["red", "blue"]}``.
        trolls: The Troll token values each seat holds, when Trolls are in play:
            ``trolls={1: [2]}``.
        giant: ``(holder, size)``: the seat holding the Giant token and the size of the largest
            Giant-led band this Age: ``giant=(0, 3)`` (TRIBE-GIA-1).
        tokens: Glory token layout as for :func:`~ethnos_rules.new_game` (kingdom name to its
            tokens: ``{"Althea": [2, 4, 6], …}``); by default the sorted tokens are dealt round
            the kingdoms (Althea gets the 1st, 7th and 13th lowest, …).
        dragons_drawn: Dragons already drawn this Age, 0 to 2: ``dragons_drawn=2``.
        top_left: Cards left in the top part of the deck, where no Dragon lies (AGE-4); by
            default half of the deck, as just after the split. ``top_left=0`` puts a Dragon
            within reach of the next deck draw.
        first_player: The first player of this Age (by default ``to_move``): it decides the
            next Age's first player and the 2-player rules' order.
        last_dragon: The seat that drew the previous Age's third Dragon (AGE-5), if any.
        options: The rule options of spec §12, an :class:`~ethnos_rules.Options`:
            ``options=Options(placement="mandatory")``.

    >>> from ethnos_rules import position, legal_actions
    >>> state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"],
    ...                  hands={0: "DWA-purple DWA-red DWA-blue"}, kingdoms={0: {"Duris": 2}})
    >>> for action in legal_actions(state)[-3:]:
    ...     print(action)
    band *DWA-purple DWA-red DWA-blue
    band *DWA-red DWA-purple DWA-blue
    band *DWA-blue DWA-purple DWA-red
    >>> from ethnos_rules import SetupError
    >>> try:
    ...     position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={0: "TRO-red"})
    ... except SetupError as err:
    ...     print(err)
    SETUP-1: hand of seat 0: TRO-red belongs to a tribe that is not in play

    Raises:
        SetupError: naming the argument, for one that names unknown things (a card, kingdom,
            colour or tribe not in play), has the wrong type, or builds an impossible position
            (more copies of a card than the game has, more markers than a supply holds, …).
    """
    if options is not None:
        check_options(options)
    if tribes is None or isinstance(tribes, str):
        raise SetupError(
            "SETUP-3",
            said("position() needs the list of tribes in play, not {tribes}", tribes=given(tribes)),
        )
    check_players(players)
    if type(to_move) is not int or not 0 <= to_move < players:
        raise SetupError(
            "SETUP-1",
            said(
                "to_move must be a seat from 0 to {number}, not {to_move}",
                number=players - 1,
                to_move=given(to_move),
            ),
        )
    options = options or Options()
    base = new_game(
        players,
        tribes=tribes,
        options=options,
        first_player=to_move if first_player is None else first_player,
        glory_tokens=_default_tokens(options, players) if tokens is None else tokens,
    )
    rules = base.rules
    if type(age) is not int or not 1 <= age <= base.config.ages:
        raise SetupError(
            "SETUP-2",
            said(
                "age must be an Age of this game, 1 to {ages}, not {age}",
                ages=base.config.ages,
                age=given(age),
            ),
        )
    seats = [
        _player(base, seat, hands, bands, kingdoms, glory, merfolk, horde, trolls)
        for seat in range(players)
    ]
    row_cards = _cards(base, "row", row)
    deck = list(rules.cards_of(base.tribes))
    for card in [*row_cards, *(c for p in seats for c in _all_cards(p))]:
        deck[card.index] -= 1
    drawn = _count("dragons_drawn", dragons_drawn)
    holder, size = _giant(giant, players)
    state = attrs.evolve(
        base,
        players=tuple(seats),
        row=row_cards,
        deck=tuple(deck),
        age=age,
        dragons_drawn=drawn,
        dragons_in_deck=rules.dragons - drawn,
        top_left=sum(deck) // 2 if top_left is None else _count("top_left", top_left),
        giant_holder=holder,
        giant_size=size,
        last_dragon=None if last_dragon is None else _seat("last_dragon", last_dragon, players),
        pending=TurnPending(to_move),
    )
    try:
        return check_state(state)
    except InvalidStateError as err:
        raise SetupError(
            "SETUP-1", said("impossible position: {reason}", reason=err.reason)
        ) from None


def _default_tokens(options: Options, players: int) -> tuple[tuple[int, ...], ...]:
    pool = options.token_pool(players)
    return tuple(tuple(sorted(pool[k :: len(Kingdom)])) for k in range(len(Kingdom)))


# --- checking the arguments: they come from outside, so each is checked for its type too ----------


def _count(name: str, value: object) -> int:
    if type(value) is not int or value < 0:
        raise SetupError(
            "SETUP-1",
            said(
                "{name} must be a non-negative integer, not {value}", name=name, value=given(value)
            ),
        )
    return value


def _seat(name: str, value: object, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise SetupError(
            "SETUP-1",
            said(
                "{name}: {value} is not a seat from 0 to {number}",
                name=name,
                value=given(value),
                number=players - 1,
            ),
        )
    return value


def _per_seat(name: str, value: object, players: int) -> dict[int, object]:
    """A mapping from seats to what ``name`` gives each; None for nothing."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SetupError(
            "SETUP-1",
            said("{name} must map seats to values, not {value}", name=name, value=given(value)),
        )
    return {_seat(f"{name} key", seat, players): v for seat, v in value.items()}


def _giant(giant: object, players: int) -> tuple[int | None, int]:
    if giant is None:
        return None, 0
    if not isinstance(giant, tuple | list) or len(giant) != 2:
        raise SetupError(
            "SETUP-1",
            said("giant must be (holder seat, band size), not {giant}", giant=given(giant)),
        )
    return _seat("giant holder", giant[0], players), _count("giant band size", giant[1])


def _cards(state: GameState, name: str, cards: object) -> tuple[Card, ...]:
    if isinstance(cards, str):
        words: list[object] = list(cards.split())
    elif isinstance(cards, list | tuple):
        words = list(cards)
    else:
        raise SetupError(
            "SETUP-1",
            said(
                "{name} must be cards as text or a list, not {cards}", name=name, cards=given(cards)
            ),
        )
    found = []
    for word in words:
        if isinstance(word, Card):
            found.append(word)
        elif isinstance(word, str):
            try:
                found.append(state.rules.card(word))
            except KeyError as err:
                raise SetupError(
                    "SETUP-1", said("{name}: {args}", name=name, args=err.args[0])
                ) from None
        else:
            raise SetupError(
                "SETUP-1", said("{name}: {word} is not a card", name=name, word=given(word))
            )
    for card in found:
        if card.tribe not in state.tribes:
            raise SetupError(
                "SETUP-1",
                said("{name}: {card} belongs to a tribe that is not in play", name=name, card=card),
            )
    return tuple(sorted(found))


def _band(state: GameState, name: str, text: object) -> Band:
    if not isinstance(text, str):
        raise SetupError(
            "SETUP-1",
            said(
                "{name}: a band is written '*LEADER CARD ...', not {text}",
                name=name,
                text=given(text),
            ),
        )
    try:
        band = parse_band(text, state.rules)
    except (KeyError, ValueError) as err:
        raise SetupError(
            "SETUP-1",
            said("{name}: band {text}: {args}", name=name, text=given(text), args=err.args[0]),
        ) from None
    _cards(state, name, band.cards)  # every card of a tribe in play
    return band


def _list(name: str, value: object) -> list[object]:
    if not isinstance(value, list | tuple):
        raise SetupError(
            "SETUP-1", said("{name} must be a list, not {value}", name=name, value=given(value))
        )
    return list(value)


def _player(
    state: GameState,
    seat: int,
    hands: object,
    bands: object,
    kingdoms: object,
    glory: object,
    merfolk: object,
    horde: object,
    trolls: object,
) -> PlayerState:
    n = state.config.players
    start = state.players[seat]
    markers = [0] * len(Kingdom)
    placed = _per_seat("kingdoms", kingdoms, n).get(seat, {})
    if not isinstance(placed, Mapping):
        raise SetupError(
            "SETUP-1", said("kingdoms of seat {seat} must map kingdoms to markers", seat=seat)
        )
    for key, count in placed.items():
        if type(count) is not int or count < 0:
            raise SetupError(
                "SETUP-1",
                said(
                    "kingdoms: markers in {key} must be a non-negative integer, not {count}",
                    key=key,
                    count=given(count),
                ),
            )
        markers[parse_named(Kingdom, key, "SETUP-1", "kingdoms")] = count
    colours = [
        parse_named(Colour, c, "SETUP-1", "horde")
        for c in _list("horde", _per_seat("horde", horde, n).get(seat, []))
    ]
    positions = _per_seat("merfolk", merfolk, n)
    if positions and start.merfolk is None:
        raise SetupError(
            "SETUP-5", said("merfolk positions are given, but Merfolk are not in play")
        )
    position = _count("merfolk", positions.get(seat, 0)) if start.merfolk is not None else None
    tokens = _list("trolls", _per_seat("trolls", trolls, n).get(seat, []))
    if any(type(t) is not int for t in tokens):
        raise SetupError(
            "SETUP-1", said("Troll tokens are integers, not {tokens}", tokens=given(tokens))
        )
    points = _per_seat("glory", glory, n).get(seat, 0)
    if type(points) is not int:
        raise SetupError(
            "SETUP-1", said("glory must be an integer, not {points}", points=given(points))
        )
    supply = start.supply - sum(markers) - len(colours)
    if supply < 0:
        raise SetupError(
            "SETUP-1",
            said(
                "kingdoms and horde of seat {seat} use {number} markers, but the "
                "supply holds {supply}{on_track} (COMP-6)",
                seat=seat,
                number=sum(markers) + len(colours),
                supply=start.supply,
                on_track=_ON_TRACK if start.merfolk is not None else "",
            ),
        )
    return PlayerState(
        hand=_cards(state, f"hand of seat {seat}", _per_seat("hands", hands, n).get(seat, ())),
        bands=tuple(
            _band(state, f"bands of seat {seat}", b)
            for b in _list("bands", _per_seat("bands", bands, n).get(seat, []))
        ),
        glory=points,
        supply=supply,
        kingdoms=tuple(markers),
        merfolk=position,
        horde=tuple(sorted(colours)),
        trolls=tuple(sorted(t for t in tokens if isinstance(t, int))),
    )


_ON_TRACK = said(" (one more marker is on the Merfolk track)")


def _all_cards(player: PlayerState) -> list[Card]:
    return [*player.hand, *(c for b in player.bands for c in b.cards)]
