"""Beginning an Age (spec §3, ``AGE-*``): the deck, first player, starting cards, row, Dragons."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from . import turn as _turn
from .actions import Action, ChooseFirstPlayer
from .chance import DrawPending
from .components import Card, multiset_insert
from .errors import ImpossibleOutcomeError
from .events import AgeBegan, DeckSplit, FirstPlayer, Source, emit
from .randomness import Random, uniform
from .said import said
from .state import DecisionKind, GameState, Pending, Stage, copy_state


def begin_age(state: GameState) -> GameState:
    """Start the current Age: gather the deck (AGE-1), then the first player (AGE-5)."""
    emit(AgeBegan, state.age, state.config.ages)
    # The third Dragon came from the bottom part (AGE-4), so no top-part card and no Dragon is
    # left in the deck: top_left and dragons_in_deck are 0 already.
    changes: dict[str, Any] = {"dragons_drawn": 0}
    first = state.first_player
    if state.age > 1:
        # AGE-1: every Ally card goes back into the deck; the Dragons are set aside. The hands
        # and bands are empty already (END-1, END-5).
        first = least_glory_seat(state)
        emit(_least_glory_event, state, first)
        deck = state.rules.cards_of(state.tribes)
        changes.update(deck=deck, row=(), discard=(), discarded_hands=(), first_player=first)
    elif first is not None:
        emit(FirstPlayer, first, 1, "given")
    pending = FirstPlayerPending() if first is None else DealPending(0)
    return copy_state(state, pending=pending, **changes)


def clockwise_from_last_dragon(state: GameState) -> list[int]:
    """The seats clockwise, starting at the player who drew the previous Age's third Dragon."""
    n = state.config.players
    start = state.last_dragon or 0
    return [(start + i) % n for i in range(n)]


def least_glory_seat(state: GameState) -> int:
    """AGE-5 for Ages II and III: least Glory; ties go to the first tied seat met clockwise
    starting at the player who drew the third Dragon (that player included)."""
    return min(clockwise_from_last_dragon(state), key=lambda seat: state.players[seat].glory)


def _least_glory_event(state: GameState, first: int) -> FirstPlayer:
    least = state.players[first].glory
    tied = tuple(s for s, p in enumerate(state.players) if p.glory == least)
    return FirstPlayer(first, state.age, "least_glory", least, tied, state.last_dragon or 0)


@attrs.frozen(slots=True)
class FirstPlayerPending(Pending):
    """Chance: the first player of Age I, uniform over the seats (AGE-5)."""

    stage: ClassVar[Stage] = Stage.FIRST_PLAYER
    kind: ClassVar[DecisionKind] = DecisionKind.FIRST_PLAYER
    chance: ClassVar[bool] = True
    rule: ClassVar[str] = "AGE-5"
    accepts: ClassVar[tuple[type[Action], ...]] = (ChooseFirstPlayer,)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return tuple(ChooseFirstPlayer(seat) for seat in range(state.config.players))

    def outcomes(self, state: GameState) -> Sequence[tuple[Action, Fraction]]:
        n = state.config.players
        return [(ChooseFirstPlayer(seat), Fraction(1, n)) for seat in range(n)]

    def sample(self, state: GameState, rng: Random) -> Action:
        return uniform(self.legal(state), rng)

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, ChooseFirstPlayer)
        if not 0 <= action.seat < state.config.players:
            raise ImpossibleOutcomeError(
                "AGE-5", said("there is no seat {seat}", seat=action.seat), action
            )
        emit(FirstPlayer, action.seat, 1, "chance")
        return copy_state(state, first_player=action.seat, pending=DealPending(0))

    def describe(self) -> str:
        return said("chance: choose the first player of Age I")

    def problems(self, state: GameState) -> list[str]:
        if state.first_player is not None:
            return ["the first player is chosen, yet chance is to choose one (AGE-5)"]
        return []


@attrs.frozen(slots=True)
class DealPending(DrawPending):
    """Chance: the starting card of the ``dealt``-th player from the first player (AGE-2)."""

    dealt: int
    stage: ClassVar[Stage] = Stage.DEAL
    kind: ClassVar[DecisionKind] = DecisionKind.DEAL
    rule: ClassVar[str] = "AGE-2"
    source: ClassVar[Source] = "deal"

    def receiver(self, state: GameState) -> int:
        """The seat that receives this card."""
        assert state.first_player is not None
        return (state.first_player + self.dealt) % state.config.players

    def receive(
        self, state: GameState, card: Card, deck: tuple[int, ...], top_left: int
    ) -> GameState:
        if self.dealt + 1 < state.config.players:
            then: Pending = DealPending(self.dealt + 1)
        else:
            then = RowPending(row_size(state))
        seat = self.receiver(state)
        return _turn.take_card(state, seat, card, then, deck=deck, top_left=top_left)

    def dragon(self, state: GameState) -> GameState:
        raise AssertionError("no Dragon is in the deck while dealing (AGE-2)")

    def describe(self) -> str:
        return said("chance: deal starting card {number}", number=self.dealt + 1)

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"receiver": self.receiver(state), "card_number": self.dealt + 1}

    def problems(self, state: GameState) -> list[str]:
        n = state.config.players
        if not 0 <= self.dealt < n:
            return [f"starting card {self.dealt + 1} is dealt, but there are {n} players"]
        if state.first_player is None:
            return [f"{self.describe()}: the first player is decided before dealing (AGE-2)"]
        hands = [len(p.hand) for p in state.players]
        dealt = [1 if (seat - state.first_player) % n < self.dealt else 0 for seat in range(n)]
        if hands != dealt or state.row:
            return [f"{self.describe()}: the hands must hold the cards dealt so far (AGE-2)"]
        return []


@attrs.frozen(slots=True)
class RowPending(DrawPending):
    """Chance: one of the cards turned face up into the row (AGE-3)."""

    left: int
    stage: ClassVar[Stage] = Stage.ROW
    kind: ClassVar[DecisionKind] = DecisionKind.ROW
    rule: ClassVar[str] = "AGE-3"
    source: ClassVar[Source] = "row"

    def receiver(self, state: GameState) -> None:
        return None

    def receive(
        self, state: GameState, card: Card, deck: tuple[int, ...], top_left: int
    ) -> GameState:
        row = multiset_insert(state.row, card)
        if self.left > 1:
            then = RowPending(self.left - 1)
            return copy_state(state, row=row, pending=then, deck=deck, top_left=top_left)
        return split_deck(copy_state(state, row=row, deck=deck, top_left=top_left))

    def dragon(self, state: GameState) -> GameState:
        raise AssertionError("no Dragon is in the deck while the row is laid (AGE-3)")

    def describe(self) -> str:
        return said("chance: turn up a row card ({left} left)", left=self.left)

    def facts(self, state: GameState) -> dict[str, Any]:
        return {"left": self.left}

    def problems(self, state: GameState) -> list[str]:
        size = row_size(state)
        if not 1 <= self.left <= size:
            return [f"{self.left} row cards are left to turn up; the row has {size} (AGE-3)"]
        if state.first_player is None:
            return [f"{self.describe()}: the first player is decided before dealing (AGE-2)"]
        if any(len(p.hand) != 1 for p in state.players) or len(state.row) != size - self.left:
            return [f"{self.describe()}: the row must hold the cards turned up so far"]
        return []


def row_size(state: GameState) -> int:
    """AGE-3: 2 × players cards are turned face up into the row."""
    return 2 * state.config.players


def split_deck(state: GameState) -> GameState:
    """AGE-4: the Dragons go into the bottom part; the top ``n // 2`` cards hold none.
    Then the first player takes the first turn (AGE-6)."""
    first = state.first_player
    assert first is not None
    top = sum(state.deck) // 2
    dragons = state.rules.dragons
    state = copy_state(state, top_left=top, dragons_in_deck=dragons)
    emit(DeckSplit, top, sum(state.deck) - top + dragons, dragons)
    return _turn.start_turn(state, first)
