"""What one player can see: the state without the hidden cards.

Hands are hidden from the other players, and the deck from everyone; all else in Ethnos is
public (the row, bands, markers, Glory, tokens). An :class:`Observation` is what a bot playing
one seat sees now, as OpenSpiel's observation is; what the seat has seen since the start (its
perfect recall) is :func:`~ethnos_rules.information_state`.
"""

from __future__ import annotations

import attrs

from .._rules.components import Card, Colour, multiset_remove
from .._rules.engine import ChanceNode, _game, to_move
from .._rules.options import Options
from .._rules.setup import check_seat
from .._rules.state import DRAWERS, Band, DecisionKind, GameState, PlayerState
from .._rules.words import cards_text
from .memo import ByIdentity


@attrs.frozen
class SeatView:
    """What everyone can see of one seat.

    Attributes:
        hand_size: Cards in hand (their faces are hidden).
        bands: Bands played this Age.
        glory: Glory so far.
        supply: Markers in supply.
        kingdoms: Markers on each kingdom, indexed by :class:`Kingdom`.
        merfolk: Position on the Merfolk track, or None without Merfolk.
        horde: Occupied spaces of the Orc Horde board.
        trolls: Troll tokens held.
    """

    hand_size: int
    bands: tuple[Band, ...]
    glory: int
    supply: int
    kingdoms: tuple[int, ...]
    merfolk: int | None
    horde: tuple[Colour, ...]
    trolls: tuple[int, ...]


@attrs.frozen
class Observation:
    """The state as the player in ``seat`` sees it.

    Two states that differ only in cards this seat cannot see (other hands, the deck's order
    or contents) give equal observations.

    Attributes:
        seat: The observing seat.
        hand: That seat's own hand.
        seats: What is public of every seat, by seat.
        age: The current Age.
        decision: What is being decided now, in words (whose turn, which follow-up).
        row: The face-up cards beside the board.
        tokens: Glory tokens on each kingdom, lowest first.
        tribes: Tribes in play.
        deck_size: Ally cards left in the deck.
        top_left: Of those, cards in the top part, where no Dragon lies.
        dragons_drawn: Dragons revealed this Age.
        giant_holder: Seat holding the Giant token, if any.
        discard: Cards discarded at the end of the Age that this seat saw: its own hand and,
            once the Age is scored, the bands (END-5); not the other hands (END-1), which go
            face down.
        unclaimed_trolls: Troll tokens no player holds (TRIBE-TRO-1).
        options: The rule options (the Merfolk track among them).
        ages: The number of Ages of the game.
        kind: What is being decided, as :func:`~ethnos_rules.pending_decision` names it, for
            a bot to branch on (None only in an observation built without it).
        to_move: Who decides: a seat, :data:`~ethnos_rules.CHANCE`, or None once the game is
            over, as :func:`~ethnos_rules.to_move` says.
        pieces: The board pieces the tribes in play bring (SETUP-5): ``"track"`` (the
            Merfolk board), ``"giant"`` (the Giant token), ``"horde"`` (the Orc Hordes),
            ``"trolls"`` (the Troll tokens).
    """

    seat: int
    hand: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    age: int
    decision: str
    row: tuple[Card, ...]
    tokens: tuple[tuple[int, ...], ...]
    tribes: tuple[str, ...]
    deck_size: int
    top_left: int
    dragons_drawn: int
    giant_holder: int | None
    discard: tuple[Card, ...]
    unclaimed_trolls: tuple[int, ...] = ()
    options: Options = attrs.field(factory=Options)
    ages: int = 3
    kind: DecisionKind | None = None
    to_move: int | ChanceNode | None = None
    pieces: frozenset[str] = frozenset()

    def _repr_svg_(self) -> str:
        """The picture of what this seat sees, for Jupyter (see :mod:`ethnos_rules.svg`)."""
        return DRAWERS["view svg"](self)  # drawn above (see the rules' DRAWERS)

    def __str__(self) -> str:
        lines = [
            f"seat {self.seat} sees: Age {self.age}; {self.decision}",
            f"hand: {cards_text(self.hand)}",
            f"row: {cards_text(self.row)}",
            f"deck: {self.deck_size} ({self.top_left} on top); Dragons drawn {self.dragons_drawn}",
        ]
        for n, view in enumerate(self.seats):
            bands = " | ".join(str(b) for b in view.bands) or "-"
            lines.append(
                f"seat {n}: {view.hand_size} cards, glory {view.glory}, kingdoms"
                f" {list(view.kingdoms)}, bands {bands}"
            )
        return "\n".join(lines)


def _public_view(player: PlayerState) -> SeatView:
    return SeatView(
        hand_size=len(player.hand),
        bands=player.bands,
        glory=player.glory,
        supply=player.supply,
        kingdoms=player.kingdoms,
        merfolk=player.merfolk,
        horde=player.horde,
        trolls=player.trolls,
    )


seat_view = ByIdentity(_public_view)
"""What everyone sees of one player (a :class:`SeatView`); the same player object gives the
same view object, as the state shares unchanged players from one decision to the next."""


def _seen_discard(state: GameState, seat: int) -> tuple[Card, ...]:
    """The discard but the hands the other seats discarded, which only they saw (END-1)."""
    hidden = [c for s, hand in enumerate(state.discarded_hands) if s != seat for c in hand]
    return multiset_remove(state.discard, hidden) if hidden else state.discard


def observation(state: GameState, seat: int) -> Observation:
    """What the player in ``seat`` can see of ``state``.

    >>> from ethnos_rules import observation, position
    >>> tribes = ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"]
    >>> mine = observation(position(4, tribes, hands={0: "ELF-red", 1: "DWA-blue"}), 0)
    >>> theirs = observation(position(4, tribes, hands={0: "ELF-red", 1: "ORC-gray"}), 0)
    >>> mine == theirs, [str(card) for card in mine.hand], mine.seats[1].hand_size
    (True, ['ELF-red'], 1)
    >>> mine.kind, mine.to_move
    (<DecisionKind.TURN: 'turn'>, 0)

    Raises:
        InvalidStateError: if ``state`` is not a GameState.
        SetupError: (rule ``SETUP-1``) if ``seat`` is not a seat of the game.
    """
    state = _game(state)
    check_seat(seat, state.config.players)
    return Observation(
        seat=seat,
        hand=state.players[seat].hand,
        seats=tuple(map(seat_view, state.players)),
        age=state.age,
        decision=state.pending.describe(),
        row=state.row,
        tokens=state.tokens,
        tribes=tuple(t.code for t in state.tribes),
        deck_size=sum(state.deck),
        top_left=state.top_left,
        dragons_drawn=state.dragons_drawn,
        giant_holder=state.giant_holder,
        discard=_seen_discard(state, seat),
        unclaimed_trolls=state.unclaimed_trolls(),
        options=state.options,
        ages=state.config.ages,
        kind=state.pending.kind,
        to_move=to_move(state),
        pieces=state.pieces(),
    )
