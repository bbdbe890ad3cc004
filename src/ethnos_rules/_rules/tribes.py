"""Tribe abilities (spec §7, ``TRIBE-*``): each tribe's Leader ability lives in one class here.

An ability is an :class:`~ethnos_rules._rules.bands.Ability`: it plugs into the steps of a band
(BAND-6) and into end-of-Age band scoring through

- placement flags: ``places`` (Halflings never), ``any_kingdom`` (Wingfolk), ``placement_bonus``
  (Minotaurs);
- ``after_placement``: what the Leader does after the placement (Giants, Merfolk, Orcs,
  Trolls);
- ``chains``: a band that placed may be followed by another (Centaurs);
- ``handle_rest``: what becomes of the rest of the hand (Elves, Wizards);
- ``band_bonus``: extra size at band scoring (Dwarves);
- ``piece``: the board piece the tribe brings into play, if any (SETUP-5): ``"track"`` (every
  player's marker on the Merfolk board), ``"giant"`` (the Giant token), ``"horde"`` (a Horde
  board per player), ``"trolls"`` (the Troll tokens).

A hook returns the state and the decision it asks for, if any (an
:class:`~ethnos_rules._rules.bands.AbilityStep`, whose ``resolve`` says what the choice does);
the band then goes on by itself. Only the Leader's ability applies (BAND-4). The first-edition
table of tribes is in :mod:`~ethnos_rules._rules.editions`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import attrs

from .actions import Action, AddToHorde, Checkpoint, Keep, TakeTroll, WizardDraw
from .bands import Ability, AbilityStep, BandContext, Next, add_marker, discard_rest
from .components import Card, Hidden, multiset_remove
from .errors import IllegalActionError
from .events import (
    CardKept,
    CheckpointDeclined,
    CheckpointsLost,
    GiantTokenMissed,
    GiantTokenTaken,
    HordeBlocked,
    HordeDeclined,
    HordeMarkerAdded,
    KeepingDone,
    MarkerPlaced,
    MerfolkMoved,
    Source,
    TrollDeclined,
    TrollTokenTaken,
    WizardsDraw,
    credit,
    emit,
)
from .options import Options
from .said import said, word
from .state import DecisionKind, GameState, Pending, copy_player, copy_state
from .turn import DeckDraw, next_turn, take_card

# --- Centaurs, Dwarves, Halflings, Minotaurs, Skeletons, Wingfolk: flags only --------------------


class Centaurs(Ability):
    """TRIBE-CEN-1..3: a band that placed a marker may be followed by another band; see
    :class:`~ethnos_rules._rules.bands.ChainPending`."""

    chains = True


class Dwarves(Ability):
    """TRIBE-DWA-1: the band counts one card larger at end-of-Age band scoring."""

    band_bonus = 1


class Halflings(Ability):
    """TRIBE-HAL-1: a Halfling-led band never places a marker."""

    places = False


class Minotaurs(Ability):
    """TRIBE-MIN-1: effective size for placement is X + 1, in the 2-player rule too."""

    placement_bonus = 1


class Skeletons(Ability):
    """TRIBE-SKE-1: never a Leader (so this ability never runs); wild (BAND-3)."""


class Wingfolk(Ability):
    """TRIBE-WIN-1: the band's marker may go to any kingdom that passes the size test."""

    any_kingdom = True


# --- Giants ------------------------------------------------------------------------------------


class Giants(Ability):
    """TRIBE-GIA-1: a Giant-led band strictly larger (by X) than every other Giant-led band this
    Age gains 2 Glory at once and takes the Giant token."""

    GLORY = 2
    piece = "giant"

    def after_placement(self, state: GameState, ctx: BandContext) -> Next:
        if ctx.size <= state.giant_size:
            emit(GiantTokenMissed, ctx.seat, ctx.size, state.giant_size)
            return state, None
        taken = GiantTokenTaken(ctx.seat, ctx.size, state.giant_size, self.GLORY)
        state = credit(state, taken)
        return copy_state(state, giant_holder=ctx.seat, giant_size=ctx.size), None


# --- Merfolk -----------------------------------------------------------------------------------


class Merfolk(Ability):
    """TRIBE-MER-1/2: the Merfolk marker moves X spaces; each checkpoint reached or passed earns
    a marker placed in any kingdom (one per move under ``merfolk_checkpoints=one_per_move``)."""

    piece = "track"

    def after_placement(self, state: GameState, ctx: BandContext) -> Next:
        board = state.options.merfolk_board
        player = state.players[ctx.seat]
        start = player.merfolk or 0
        end = min(start + ctx.size, board.last_space)
        markers = checkpoint_markers(state.options, start, end)
        reached = checkpoints_reached(state.options, start, end)
        emit(MerfolkMoved, ctx.seat, start, end, ctx.size, reached, markers)
        state = state.with_player(ctx.seat, copy_player(player, merfolk=end))
        return checkpoints(state, ctx, markers)


def checkpoints_reached(options: Options, start: int, end: int) -> tuple[int, ...]:
    """TRIBE-MER-2: the checkpoints a move from ``start`` to ``end`` reaches or passes."""
    return tuple(c for c in sorted(options.merfolk_board.checkpoints) if start < c <= end)


def checkpoint_markers(options: Options, start: int, end: int) -> int:
    """TRIBE-MER-2: markers earned by a move from ``start`` to ``end``: one per checkpoint
    reached or passed, or one at most under ``merfolk_checkpoints=one_per_move``."""
    crossed = len(checkpoints_reached(options, start, end))
    return min(crossed, 1) if options.merfolk_checkpoints == "one_per_move" else crossed


def checkpoints(state: GameState, ctx: BandContext, left: int) -> Next:
    """Offer the next checkpoint marker, if one is left and the supply has a marker."""
    if not left:
        return state, None
    if not state.players[ctx.seat].supply:
        emit(CheckpointsLost, ctx.seat, left)
        return state, None
    return state, CheckpointPending(ctx, left)


@attrs.frozen(slots=True)
class CheckpointPending(AbilityStep):
    """Merfolk: a checkpoint marker goes to any kingdom, or nowhere (TRIBE-MER-2)."""

    ctx: BandContext
    left: int
    kind: ClassVar[DecisionKind] = DecisionKind.MERFOLK_CHECKPOINT
    rule: ClassVar[str] = "TRIBE-MER-2"
    accepts: ClassVar[tuple[type[Action], ...]] = (Checkpoint,)
    tribe_ability: ClassVar[type[Ability]] = Merfolk

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return (*(Checkpoint(k) for k in state.rules.kingdoms), Checkpoint(None))

    def resolve(self, state: GameState, action: Action) -> Next:
        assert isinstance(action, Checkpoint)
        seat = self.ctx.seat
        if action.kingdom is None:
            emit(CheckpointDeclined, seat)
        elif action.kingdom not in state.rules.kingdoms:
            raise IllegalActionError(
                "TRIBE-MER-2",
                said("{kingdom} is no kingdom of this edition", kingdom=action.kingdom.label),
                action,
            )
        else:
            # Ruling TRIBE-MER-2: band size and the 2-player rule do not apply here.
            state = add_marker(state, seat, action.kingdom)
            now = state.players[seat].kingdoms[action.kingdom]
            emit(MarkerPlaced, seat, action.kingdom, "checkpoint", now)
        return checkpoints(state, self.ctx, self.left - 1)

    def describe(self) -> str:
        return said(
            "seat {seat}: place a Merfolk checkpoint marker ({left} left)",
            seat=self.ctx.seat,
            left=self.left,
        )

    def facts(self, state: GameState) -> dict[str, Any]:
        return {**super().facts(state), "left": self.left}

    def step_problems(self, state: GameState) -> list[str]:
        player = state.players[self.ctx.seat]
        end = player.merfolk or 0
        # The move may have stopped at the last space, so it started at most X spaces back.
        reached = checkpoint_markers(state.options, end - self.ctx.size, end)
        if 1 <= self.left <= reached and player.supply:
            return []
        return [
            f"{self.describe()}: a move of {self.ctx.size} to space {end} earns {reached}"
            " checkpoint marker(s), and one needs a marker in supply (TRIBE-MER-2)"
        ]


# --- Orcs --------------------------------------------------------------------------------------


class Orcs(Ability):
    """TRIBE-ORC-1: a marker from supply may go on the Horde space of the Leader's colour, if
    that space is empty. (Emptying the Horde is end-of-Age scoring, TRIBE-ORC-2.)"""

    piece = "horde"

    def after_placement(self, state: GameState, ctx: BandContext) -> Next:
        if horde_space_free(state, ctx):
            return state, HordePending(ctx)
        colour = ctx.leader.colour
        assert colour is not None
        taken = colour in state.players[ctx.seat].horde
        emit(HordeBlocked, ctx.seat, colour, "taken" if taken else "supply")
        return state, None


def horde_space_free(state: GameState, ctx: BandContext) -> bool:
    """TRIBE-ORC-1: the player has a marker in supply and the Horde space of the Leader's
    colour is empty."""
    player = state.players[ctx.seat]
    return bool(player.supply) and ctx.leader.colour not in player.horde


@attrs.frozen(slots=True)
class HordePending(AbilityStep):
    """Orcs: add a marker to the Horde, or not (TRIBE-ORC-1)."""

    ctx: BandContext
    kind: ClassVar[DecisionKind] = DecisionKind.ORC_HORDE
    rule: ClassVar[str] = "TRIBE-ORC-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (AddToHorde,)
    tribe_ability: ClassVar[type[Ability]] = Orcs

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return (AddToHorde(True), AddToHorde(False))

    def resolve(self, state: GameState, action: Action) -> Next:
        assert isinstance(action, AddToHorde)
        seat = self.ctx.seat
        if not action.add:
            emit(HordeDeclined, seat)
            return state, None
        colour = self.ctx.leader.colour
        assert colour is not None
        player = state.players[seat]
        horde = tuple(sorted((*player.horde, colour)))
        emit(HordeMarkerAdded, seat, colour)
        return state.with_player(
            seat, copy_player(player, supply=player.supply - 1, horde=horde)
        ), None

    def describe(self) -> str:
        return said("seat {seat}: add a marker to the Orc Horde or not", seat=self.ctx.seat)

    def facts(self, state: GameState) -> dict[str, Any]:
        return {**super().facts(state), "colour": self.ctx.leader.colour}

    def step_problems(self, state: GameState) -> list[str]:
        if horde_space_free(state, self.ctx):
            return []
        return [
            f"{self.describe()}: no marker can go on the Horde's {self.ctx.leader.colour} space"
        ]


# --- Trolls ------------------------------------------------------------------------------------


class Trolls(Ability):
    """TRIBE-TRO-1: take one unclaimed Troll token of value ≤ X, or none."""

    piece = "trolls"

    def after_placement(self, state: GameState, ctx: BandContext) -> Next:
        if troll_choices(state, ctx):
            return state, TrollPending(ctx)
        emit(TrollDeclined, ctx.seat, ctx.size, none_left=True)
        return state, None


def troll_choices(state: GameState, ctx: BandContext) -> tuple[int, ...]:
    """The distinct unclaimed Troll token values ≤ X."""
    return tuple(sorted({v for v in state.unclaimed_trolls() if v <= ctx.size}))


@attrs.frozen(slots=True)
class TrollPending(AbilityStep):
    """Trolls: which unclaimed token (value ≤ X) to take, if any (TRIBE-TRO-1)."""

    ctx: BandContext
    kind: ClassVar[DecisionKind] = DecisionKind.TROLL_TOKEN
    rule: ClassVar[str] = "TRIBE-TRO-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (TakeTroll,)
    tribe_ability: ClassVar[type[Ability]] = Trolls

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return (*(TakeTroll(v) for v in troll_choices(state, self.ctx)), TakeTroll(None))

    def resolve(self, state: GameState, action: Action) -> Next:
        assert isinstance(action, TakeTroll)
        seat, size = self.ctx.seat, self.ctx.size
        if action.value is None:
            emit(TrollDeclined, seat, size)
            return state, None
        if action.value not in troll_choices(state, self.ctx):
            raise IllegalActionError(
                "TRIBE-TRO-1",
                said(
                    "the Troll token {value} is not unclaimed with value ≤ X = {size}",
                    value=action.value,
                    size=size,
                ),
                action,
            )
        player = state.players[seat]
        trolls = tuple(sorted((*player.trolls, action.value)))
        emit(TrollTokenTaken, seat, action.value, size)
        return state.with_player(seat, copy_player(player, trolls=trolls)), None

    def describe(self) -> str:
        return said("seat {seat}: take a Troll token or not", seat=self.ctx.seat)

    def facts(self, state: GameState) -> dict[str, Any]:
        return {**super().facts(state), "max_value": self.ctx.size}

    def step_problems(self, state: GameState) -> list[str]:
        if troll_choices(state, self.ctx):
            return []
        return [f"{self.describe()}: no unclaimed Troll token is worth X = {self.ctx.size} or less"]


# --- Elves -------------------------------------------------------------------------------------


class Elves(Ability):
    """TRIBE-ELF-1: keep up to X cards of the rest of the hand, discard the others."""

    def handle_rest(self, state: GameState, ctx: BandContext) -> Next:
        if not state.players[ctx.seat].hand:
            return state, None
        return state, KeepPending(ctx, ())


@attrs.frozen(slots=True)
class KeepPending(AbilityStep):
    """Elves: keep one more card, or stop (TRIBE-ELF-1).

    Cards are kept in card order (each next kept card is not before the previous one), so every
    kept set is reached by exactly one sequence of decisions.
    """

    ctx: BandContext
    kept: tuple[Card, ...]
    kind: ClassVar[DecisionKind] = DecisionKind.ELF_KEEP
    rule: ClassVar[str] = "TRIBE-ELF-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (Keep,)
    part = "rest"
    tribe_ability: ClassVar[type[Ability]] = Elves

    def keeping(self) -> tuple[int | None, tuple[Card, ...]]:
        return self.ctx.seat, self.kept

    def target(self, state: GameState) -> int:
        """The most cards the Elves may keep: X, or the whole rest of a smaller hand."""
        return min(self.ctx.size, len(state.players[self.ctx.seat].hand))

    def candidates(self, state: GameState) -> tuple[Card, ...]:
        """The card kinds that may be kept next."""
        if len(self.kept) >= self.target(state):
            return ()
        rest = multiset_remove(state.players[self.ctx.seat].hand, self.kept)
        floor = self.kept[-1].index if self.kept else -1
        later = [c for c in rest if c.index >= floor]
        if state.options.elves_keep == "up_to_x":
            return tuple(dict.fromkeys(later))
        # exactly_x: offer a card only if enough cards from it on remain to reach the target,
        # or keeping in card order could strand the player short of it.
        need = self.target(state) - len(self.kept)
        first: dict[Card, int] = {}  # where the first copy of each kind is
        for i, card in enumerate(later):
            first.setdefault(card, i)
        return tuple(c for c, i in first.items() if len(later) - i >= need)

    def may_stop(self, state: GameState) -> bool:
        """Whether keeping may end here (``exactly_x``: with none or all of the target kept)."""
        if state.options.elves_keep == "up_to_x":
            return True
        return len(self.kept) in (0, self.target(state))

    def legal(self, state: GameState) -> tuple[Action, ...]:
        keeps = tuple(Keep(c) for c in self.candidates(state))
        return (*keeps, Keep(None)) if self.may_stop(state) else keeps

    def resolve(self, state: GameState, action: Action) -> Next:
        assert isinstance(action, Keep) and not isinstance(action.card, Hidden)
        seat, limit = self.ctx.seat, self.ctx.size
        if action.card is None:
            if not self.may_stop(state):
                raise IllegalActionError(
                    "TRIBE-ELF-1",
                    said(
                        "under elves_keep=exactly_x keep {target} cards or none",
                        target=self.target(state),
                    ),
                    action,
                )
            emit(KeepingDone, seat, len(self.kept), limit)
            then = next_turn(state, seat)  # the turn ends, in discard_rest's copy
            return discard_rest(state, seat, self.kept, then=then), then
        if action.card not in self.candidates(state):
            raise IllegalActionError("TRIBE-ELF-1", self._why_not(state, action.card), action)
        emit(CardKept, seat, action.card, limit)
        return state, KeepPending(self.ctx, (*self.kept, action.card))

    def _why_not(self, state: GameState, card: Card) -> str:
        if len(self.kept) >= self.target(state):
            return said(
                "Elves keep at most X = {size} cards and {n_kept} are kept",
                size=self.ctx.size,
                n_kept=len(self.kept),
            )
        rest = multiset_remove(state.players[self.ctx.seat].hand, self.kept)
        if card not in rest:
            if card in self.kept:
                return said("there is no more {card} in the rest of the hand", card=card)
            return said("there is no {card} in the rest of the hand", card=card)
        allowed = ", ".join(str(c) for c in dict.fromkeys(self.candidates(state))) or word("none")
        if self.kept and card.index < self.kept[-1].index:
            return said(
                "kept cards are named in card order, and {card} comes before {kept}, "
                "kept already: keep {card} first, then the others in order; cards that "
                "may still be kept now: {allowed}",
                card=card,
                kept=self.kept[-1],
                allowed=allowed,
            )
        return (  # exactly_x: too few cards from this one on, in card order, to reach X
            said(
                "with elves_keep=exactly_x, keeping {card} would leave too few cards "
                "after it in card order to keep exactly {target}; cards that may be "
                "kept now: {allowed}",
                card=card,
                target=self.target(state),
                allowed=allowed,
            )
        )

    def describe(self) -> str:
        return said(
            "seat {seat}: Elves keep a card or stop ({n_kept} kept)",
            seat=self.ctx.seat,
            n_kept=len(self.kept),
        )

    def facts(self, state: GameState) -> dict[str, Any]:
        return {**super().facts(state), "kept": self.kept, "target": self.target(state)}

    def step_problems(self, state: GameState) -> list[str]:
        hand = state.players[self.ctx.seat].hand
        ordered = all(a.index <= b.index for a, b in zip(self.kept, self.kept[1:], strict=False))
        if not hand or Counter(self.kept) - Counter(hand) or not ordered:
            return [f"{self.describe()}: the kept cards must be in the hand, named in card order"]
        if len(self.kept) > self.target(state):
            return [
                f"{self.describe()}: Elves keep at most X = {self.ctx.size} cards (TRIBE-ELF-1)"
            ]
        return []


# --- Wizards -----------------------------------------------------------------------------------


class Wizards(Ability):
    """TRIBE-WIZ-1: after discarding the rest of the hand, draw X cards from the deck, or none
    (any number up to X under ``wizard_draw=up_to_x``)."""

    def handle_rest(self, state: GameState, ctx: BandContext) -> Next:
        then = WizardPending(ctx)
        return discard_rest(state, ctx.seat, then=then), then


@attrs.frozen(slots=True)
class WizardPending(AbilityStep):
    """Wizards: how many cards to draw (TRIBE-WIZ-1)."""

    ctx: BandContext
    kind: ClassVar[DecisionKind] = DecisionKind.WIZARD_COUNT
    rule: ClassVar[str] = "TRIBE-WIZ-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (WizardDraw,)
    part = "rest"
    tribe_ability: ClassVar[type[Ability]] = Wizards

    def counts(self, state: GameState) -> tuple[int, ...]:
        """How many cards the Wizards may draw."""
        if state.options.wizard_draw == "up_to_x":
            return tuple(range(self.ctx.size + 1))
        return (self.ctx.size, 0)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return tuple(WizardDraw(n) for n in self.counts(state))

    def resolve(self, state: GameState, action: Action) -> Next:
        assert isinstance(action, WizardDraw)
        if action.count not in self.counts(state):
            allowed = " or ".join(map(str, self.counts(state)))
            raise IllegalActionError(
                "TRIBE-WIZ-1",
                said(
                    "Wizards with X = {size} draw {allowed} cards",
                    size=self.ctx.size,
                    allowed=allowed,
                ),
                action,
            )
        emit(WizardsDraw, self.ctx.seat, action.count)
        if action.count == 0:
            return state, None
        return state, WizardDrawPending(self.ctx.seat, action.count)

    def describe(self) -> str:
        return said("seat {seat}: Wizards draw X cards or none", seat=self.ctx.seat)

    def facts(self, state: GameState) -> dict[str, Any]:
        return {**super().facts(state), "counts": self.counts(state)}

    def step_problems(self, state: GameState) -> list[str]:
        if state.players[self.ctx.seat].hand:
            return [
                f"{self.describe()}: the rest of the hand is discarded before Wizards draw"
                " (TRIBE-WIZ-1)"
            ]
        return []


@attrs.frozen(slots=True)
class WizardDrawPending(DeckDraw):
    """Chance: the next card a Wizard draws; ``left`` draws remain (TRIBE-WIZ-1, RECRUIT-3/4)."""

    wizard: int
    left: int
    kind: ClassVar[DecisionKind] = DecisionKind.WIZARD_DRAW
    rule: ClassVar[str] = "TRIBE-WIZ-1"
    source: ClassVar[Source] = "wizard"

    def drawer(self) -> int:
        return self.wizard

    def receive(
        self, state: GameState, card: Card, deck: tuple[int, ...], top_left: int
    ) -> GameState:
        if self.left > 1:
            then: Pending = WizardDrawPending(self.wizard, self.left - 1)
        else:
            then = next_turn(state, self.wizard)
        return take_card(state, self.wizard, card, then, deck=deck, top_left=top_left)

    def describe(self) -> str:
        return said(
            "chance: the card seat {wizard}'s Wizards draw ({left} left)",
            wizard=self.wizard,
            left=self.left,
        )

    def facts(self, state: GameState) -> dict[str, Any]:
        return {**super().facts(state), "left": self.left}

    def problems(self, state: GameState) -> list[str]:
        player = state.players[self.wizard]
        band = player.bands[-1] if player.bands else None
        if band is None or not isinstance(band.leader.tribe.ability, Wizards):
            return [f"seat {self.wizard}'s Wizard draws follow no Wizard-led band"]
        drawn, size = len(player.hand), band.size
        counts = WizardPending(BandContext(self.wizard, band, 0, False)).counts(state)
        if self.left < 1 or drawn + self.left not in counts:
            return [
                f"seat {self.wizard}'s Wizards have drawn {drawn} cards and {self.left} are"
                f" left, but X = {size} (TRIBE-WIZ-1)"
            ]
        return []
