"""A turn (spec §4–5, ``TURN-*``, ``RECRUIT-*``): recruit an Ally or play a band."""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import attrs

from . import bands as _bands
from . import scoring as _scoring
from .actions import Action, Pass, PlayBand, Recruit
from .chance import DrawPending
from .components import Card, multiset_insert, multiset_remove
from .errors import IllegalActionError
from .events import DragonRevealed, Passed, Recruited, Source, emit
from .frozen import UNCHANGED
from .said import said
from .state import DecisionKind, GameState, Pending, copy_player, copy_state, replace_seat

# A turn lists the same few Recruit actions all game (actions are immutable): build each once.
_recruit = functools.lru_cache(maxsize=None)(Recruit)
_RECRUIT_DECK = Recruit(None)


def start_turn(state: GameState, seat: int) -> GameState:
    """The player in ``seat`` is to take a turn (TURN-1)."""
    return copy_state(state, pending=_turn_of(seat))


def end_turn(state: GameState, seat: int) -> GameState:
    """The turn of ``seat`` is over (see :func:`next_turn`)."""
    return copy_state(state, pending=next_turn(state, seat))


def next_turn(state: GameState, seat: int) -> TurnPending:
    """What follows the turn of ``seat``: play goes clockwise (AGE-6)."""
    return _turn_of((seat + 1) % state.config.players)


def can_recruit(state: GameState, seat: int) -> bool:
    """TURN-2: a player holding the hand limit (10 cards) may not recruit."""
    return len(state.players[seat].hand) < state.rules.hand_limit


@attrs.frozen(slots=True)
class TurnPending(Pending):
    """A player's turn: recruit from the row or the deck, play a band, or pass (TURN-1..3)."""

    turn_seat: int
    kind: ClassVar[DecisionKind] = DecisionKind.TURN
    rule: ClassVar[str] = "TURN-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (Recruit, PlayBand, Pass)

    @property
    def seat(self) -> int:
        return self.turn_seat

    def legal(self, state: GameState) -> tuple[Action, ...]:
        bands = _bands.band_actions(state.players[self.turn_seat].hand)
        if not can_recruit(state, self.turn_seat):
            return bands or (Pass(),)
        return (*map(_recruit, dict.fromkeys(state.row)), _RECRUIT_DECK, *bands)

    def apply(self, state: GameState, action: Action) -> GameState:
        seat = self.turn_seat
        if isinstance(action, PlayBand):
            return _bands.play_band(state, seat, action, chain=0)
        if isinstance(action, Pass):
            return self._pass(state, action)
        assert isinstance(action, Recruit)
        if not can_recruit(state, seat):
            raise IllegalActionError(
                "TURN-2",
                said(
                    "a player holding {hand_limit} cards may not recruit",
                    hand_limit=state.rules.hand_limit,
                ),
                action,
            )
        if action.card is not None and action.card not in state.row:
            raise IllegalActionError(
                "RECRUIT-1", said("there is no {card} in the row", card=action.card), action
            )
        emit(Recruited, seat, action.card)
        if action.card is None:
            return copy_state(state, pending=_draw_of(seat))
        # RECRUIT-2: the row is not refilled. The turn ends (one copy of the state for all).
        row = multiset_remove(state.row, [action.card])
        return take_card(state, seat, action.card, next_turn(state, seat), row=row)

    def _pass(self, state: GameState, action: Action) -> GameState:
        hand = state.players[self.turn_seat].hand
        if can_recruit(state, self.turn_seat):
            raise IllegalActionError(
                "TURN-3", said("passing is allowed only with a full hand"), action
            )
        if _bands.band_actions(hand):
            raise IllegalActionError(
                "TURN-3", said("a band can be played, so passing is not allowed"), action
            )
        emit(Passed, self.turn_seat, len(hand))
        return end_turn(state, self.turn_seat)

    def describe(self) -> str:
        return said("seat {turn_seat}: recruit or play a band", turn_seat=self.turn_seat)

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"can_recruit": can_recruit(state, self.turn_seat)}


def take_card(
    state: GameState,
    seat: int,
    card: Card,
    pending: Pending,
    *,
    row: tuple[Card, ...] = UNCHANGED,
    deck: tuple[int, ...] = UNCHANGED,
    top_left: int = UNCHANGED,
) -> GameState:
    """``card`` goes into the hand of ``seat``, and ``pending`` comes next (with the row or the
    deck changed too, in the same copy of the state)."""
    player = state.players[seat]
    player = copy_player(player, hand=multiset_insert(player.hand, card))
    players = replace_seat(state.players, seat, player)
    return copy_state(
        state, pending=pending, players=players, row=row, deck=deck, top_left=top_left
    )


class DeckDraw(DrawPending):
    """A player draws from the deck into hand; Dragons are set aside and the player draws again
    (RECRUIT-3); the third Dragon ends the Age at once (RECRUIT-4)."""

    __slots__ = ()

    def drawer(self) -> int:
        """The seat that draws."""
        raise NotImplementedError

    def receiver(self, state: GameState) -> int:
        return self.drawer()

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"drawer": self.drawer()}

    def seats(self) -> tuple[int, ...]:
        return (self.drawer(),)

    def dragon(self, state: GameState) -> GameState:
        last = state.dragons_drawn >= state.rules.dragons
        emit(
            DragonRevealed,
            self.drawer(),
            state.dragons_drawn,
            state.rules.dragons,
            state.age,
            ends_age=last,
            wizards=self.source == "wizard",
        )
        if last:
            return _scoring.end_age(state, self.drawer())
        return state  # RECRUIT-3: draw again; this pending stays.


@attrs.frozen(slots=True)
class RecruitDraw(DeckDraw):
    """Chance: the card a player recruits from the top of the deck (RECRUIT-1)."""

    recruiter: int
    kind: ClassVar[DecisionKind] = DecisionKind.DECK_DRAW
    rule: ClassVar[str] = "RECRUIT-1"
    source: ClassVar[Source] = "deck"

    def drawer(self) -> int:
        return self.recruiter

    def receive(
        self, state: GameState, card: Card, deck: tuple[int, ...], top_left: int
    ) -> GameState:
        then = next_turn(state, self.recruiter)
        return take_card(state, self.recruiter, card, then, deck=deck, top_left=top_left)

    def describe(self) -> str:
        return said("chance: the card seat {recruiter} draws", recruiter=self.recruiter)

    def problems(self, state: GameState) -> list[str]:
        if not can_recruit(state, self.recruiter):
            held = len(state.players[self.recruiter].hand)
            return [f"seat {self.recruiter} holds {held} cards and may not recruit (TURN-2)"]
        return []


# A pending decision is immutable and these two differ only by seat: one object per seat is
# shared by every turn (a turn builds no pending object of its own).
_turn_of = functools.lru_cache(maxsize=64)(TurnPending)
_draw_of = functools.lru_cache(maxsize=64)(RecruitDraw)
