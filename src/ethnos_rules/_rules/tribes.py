"""Tribe abilities (spec §7, ``TRIBE-*``): each tribe's Leader ability lives in one class here.

An :class:`Ability` plugs into the steps of a band (BAND-6) and into end-of-Age band scoring:

- placement: ``places`` (Halflings never), ``any_kingdom`` (Wingfolk), ``placement_bonus``
  (Minotaurs);
- :meth:`Ability.after_placement`: what the Leader does after the placement (Giants, Merfolk,
  Orcs, Trolls);
- ``chains``: a band that placed may be followed by another (Centaurs);
- :meth:`Ability.handle_rest`: what becomes of the rest of the hand (Elves, Wizards);
- ``band_bonus``: extra size at band scoring (Dwarves);
- ``piece``: the board piece the tribe brings into play, if any (SETUP-5): ``"track"`` (every
  player's marker on the Merfolk board), ``"giant"`` (the Giant token), ``"horde"`` (a Horde
  board per player), ``"trolls"`` (the Troll tokens).

Only the Leader's ability applies (BAND-4). The first-edition tribe list is at the bottom.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from . import bands as _bands
from . import turn as _turn
from .actions import Action, AddToHorde, Checkpoint, Keep, TakeTroll, WizardDraw
from .components import KINGDOMS, Card, Ruleset, multiset_remove, register_ruleset
from .errors import IllegalActionError
from .options import Options
from .state import GameState, Pending

BandContext = _bands.BandContext


class Ability:
    """A Leader ability with no effect; tribes override what they change."""

    places: ClassVar[bool] = True
    any_kingdom: ClassVar[bool] = False
    placement_bonus: ClassVar[int] = 0
    chains: ClassVar[bool] = False
    band_bonus: ClassVar[int] = 0
    piece: ClassVar[str | None] = None

    def after_placement(self, state: GameState, ctx: BandContext) -> GameState:
        """The ability's effect after placement; must end by calling ``after_ability``."""
        return _bands.after_ability(state, ctx)

    def handle_rest(self, state: GameState, ctx: BandContext) -> GameState:
        """What happens to the rest of the hand; by default it is all discarded (BAND-6)."""
        return _bands.discard_and_end(state, ctx)


class _Pending(Pending):
    """A tribe's follow-up decision about the band in ``ctx``."""

    __slots__ = ()

    ctx: BandContext

    @property
    def seat(self) -> int:
        return self.ctx.seat


# --- Centaurs, Dwarves, Halflings, Minotaurs, Skeletons, Wingfolk: flags only --------------------


class Centaurs(Ability):
    """TRIBE-CEN-1..3: a band that placed a marker may be followed by another band; see
    :class:`~ethnos_rules._bands.ChainPending`."""

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

    def after_placement(self, state: GameState, ctx: BandContext) -> GameState:
        if ctx.size > state.giant_size:
            player = state.players[ctx.seat]
            state = state.with_player(
                ctx.seat, attrs.evolve(player, glory=player.glory + self.GLORY)
            )
            state = attrs.evolve(state, giant_holder=ctx.seat, giant_size=ctx.size)
        return _bands.after_ability(state, ctx)


# --- Merfolk -----------------------------------------------------------------------------------


class Merfolk(Ability):
    """TRIBE-MER-1/2: the Merfolk marker moves X spaces; each checkpoint reached or passed earns
    a marker placed in any kingdom (one per move under ``merfolk_checkpoints=one_per_move``)."""

    piece = "track"

    def after_placement(self, state: GameState, ctx: BandContext) -> GameState:
        board = state.options.merfolk_board
        player = state.players[ctx.seat]
        start = player.merfolk or 0
        end = min(start + ctx.size, board.last_space)
        state = state.with_player(ctx.seat, attrs.evolve(player, merfolk=end))
        return checkpoints(state, ctx, checkpoint_markers(state.options, start, end))


def checkpoint_markers(options: Options, start: int, end: int) -> int:
    """TRIBE-MER-2: markers earned by a move from ``start`` to ``end``: one per checkpoint
    reached or passed, or one at most under ``merfolk_checkpoints=one_per_move``."""
    crossed = sum(1 for c in options.merfolk_board.checkpoints if start < c <= end)
    return min(crossed, 1) if options.merfolk_checkpoints == "one_per_move" else crossed


def checkpoints(state: GameState, ctx: BandContext, left: int) -> GameState:
    """Offer the next checkpoint marker, if one is left and the supply has a marker."""
    if left and state.players[ctx.seat].supply:
        return attrs.evolve(state, pending=CheckpointPending(ctx, left))
    return _bands.after_ability(state, ctx)


@attrs.frozen(slots=True)
class CheckpointPending(_Pending):
    """Merfolk: a checkpoint marker goes to any kingdom, or nowhere (TRIBE-MER-2)."""

    ctx: BandContext
    left: int
    rule: ClassVar[str] = "TRIBE-MER-2"
    accepts: ClassVar[tuple[type[Action], ...]] = (Checkpoint,)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return (*(Checkpoint(k) for k in KINGDOMS), Checkpoint(None))

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, Checkpoint)
        if action.kingdom is not None:
            # Ruling TRIBE-MER-2: band size and the 2-player rule do not apply here.
            state = _bands.add_marker(state, self.ctx.seat, action.kingdom)
        return checkpoints(state, self.ctx, self.left - 1)

    def describe(self) -> str:
        return f"seat {self.ctx.seat}: place a Merfolk checkpoint marker ({self.left} left)"


# --- Orcs --------------------------------------------------------------------------------------


class Orcs(Ability):
    """TRIBE-ORC-1: a marker from supply may go on the Horde space of the Leader's colour, if
    that space is empty. (Emptying the Horde is end-of-Age scoring, TRIBE-ORC-2.)"""

    piece = "horde"

    def after_placement(self, state: GameState, ctx: BandContext) -> GameState:
        player = state.players[ctx.seat]
        if player.supply and ctx.leader.colour not in player.horde:
            return attrs.evolve(state, pending=HordePending(ctx))
        return _bands.after_ability(state, ctx)


@attrs.frozen(slots=True)
class HordePending(_Pending):
    """Orcs: add a marker to the Horde, or not (TRIBE-ORC-1)."""

    ctx: BandContext
    rule: ClassVar[str] = "TRIBE-ORC-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (AddToHorde,)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return (AddToHorde(True), AddToHorde(False))

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, AddToHorde)
        if action.add:
            colour = self.ctx.leader.colour
            assert colour is not None
            player = state.players[self.ctx.seat]
            horde = tuple(sorted((*player.horde, colour)))
            player = attrs.evolve(player, supply=player.supply - 1, horde=horde)
            state = state.with_player(self.ctx.seat, player)
        return _bands.after_ability(state, self.ctx)

    def describe(self) -> str:
        return f"seat {self.ctx.seat}: add a marker to the Orc Horde or not"


# --- Trolls ------------------------------------------------------------------------------------


class Trolls(Ability):
    """TRIBE-TRO-1: take one unclaimed Troll token of value ≤ X, or none."""

    piece = "trolls"

    def after_placement(self, state: GameState, ctx: BandContext) -> GameState:
        if troll_choices(state, ctx):
            return attrs.evolve(state, pending=TrollPending(ctx))
        return _bands.after_ability(state, ctx)


def troll_choices(state: GameState, ctx: BandContext) -> tuple[int, ...]:
    """The distinct unclaimed Troll token values ≤ X."""
    return tuple(sorted({v for v in state.unclaimed_trolls() if v <= ctx.size}))


@attrs.frozen(slots=True)
class TrollPending(_Pending):
    """Trolls: which unclaimed token (value ≤ X) to take, if any (TRIBE-TRO-1)."""

    ctx: BandContext
    rule: ClassVar[str] = "TRIBE-TRO-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (TakeTroll,)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return (*(TakeTroll(v) for v in troll_choices(state, self.ctx)), TakeTroll(None))

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, TakeTroll)
        if action.value is not None:
            if action.value not in troll_choices(state, self.ctx):
                raise IllegalActionError(
                    "TRIBE-TRO-1",
                    f"the Troll token {action.value} is not unclaimed with value ≤ X = "
                    f"{self.ctx.size}",
                    action,
                )
            player = state.players[self.ctx.seat]
            trolls = tuple(sorted((*player.trolls, action.value)))
            state = state.with_player(self.ctx.seat, attrs.evolve(player, trolls=trolls))
        return _bands.after_ability(state, self.ctx)

    def describe(self) -> str:
        return f"seat {self.ctx.seat}: take a Troll token or not"


# --- Elves -------------------------------------------------------------------------------------


class Elves(Ability):
    """TRIBE-ELF-1: keep up to X cards of the rest of the hand, discard the others."""

    def handle_rest(self, state: GameState, ctx: BandContext) -> GameState:
        if not state.players[ctx.seat].hand:
            return _turn.end_turn(state, ctx.seat)
        return attrs.evolve(state, pending=KeepPending(ctx, ()))


@attrs.frozen(slots=True)
class KeepPending(_Pending):
    """Elves: keep one more card, or stop (TRIBE-ELF-1).

    Cards are kept in card order (each next kept card is not before the previous one), so every
    kept set is reached by exactly one sequence of decisions.
    """

    ctx: BandContext
    kept: tuple[Card, ...]
    rule: ClassVar[str] = "TRIBE-ELF-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (Keep,)

    def _target(self, state: GameState) -> int:
        return min(self.ctx.size, len(state.players[self.ctx.seat].hand))

    def _candidates(self, state: GameState) -> tuple[Card, ...]:
        if len(self.kept) >= self._target(state):
            return ()
        rest = multiset_remove(state.players[self.ctx.seat].hand, self.kept)
        floor = self.kept[-1].index if self.kept else -1
        later = [c for c in rest if c.index >= floor]
        if state.options.elves_keep == "up_to_x":
            return tuple(dict.fromkeys(later))
        # exactly_x: offer a card only if enough cards from it on remain to reach the target,
        # or keeping in card order could strand the player short of it.
        need = self._target(state) - len(self.kept)
        first: dict[Card, int] = {}  # where the first copy of each kind is
        for i, card in enumerate(later):
            first.setdefault(card, i)
        return tuple(c for c, i in first.items() if len(later) - i >= need)

    def _may_stop(self, state: GameState) -> bool:
        if state.options.elves_keep == "up_to_x":
            return True
        return len(self.kept) in (0, self._target(state))

    def legal(self, state: GameState) -> tuple[Action, ...]:
        keeps = tuple(Keep(c) for c in self._candidates(state))
        return (*keeps, Keep(None)) if self._may_stop(state) else keeps

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, Keep)
        if action.card is None:
            if not self._may_stop(state):
                raise IllegalActionError(
                    "TRIBE-ELF-1",
                    f"under elves_keep=exactly_x keep {self._target(state)} cards or none",
                    action,
                )
            return _turn.end_turn(
                _bands.discard_rest(state, self.ctx.seat, self.kept), self.ctx.seat
            )
        if action.card not in self._candidates(state):
            raise IllegalActionError("TRIBE-ELF-1", self._why_not(state, action.card), action)
        return attrs.evolve(state, pending=KeepPending(self.ctx, (*self.kept, action.card)))

    def _why_not(self, state: GameState, card: Card) -> str:
        if len(self.kept) >= self._target(state):
            return f"Elves keep at most X = {self.ctx.size} cards and {len(self.kept)} are kept"
        rest = multiset_remove(state.players[self.ctx.seat].hand, self.kept)
        if card not in rest:
            more = " more" if card in self.kept else ""
            return f"there is no{more} {card} in the rest of the hand"
        return "kept cards are named in card order; name this card before the previous one"

    def describe(self) -> str:
        return f"seat {self.ctx.seat}: Elves keep a card or stop ({len(self.kept)} kept)"


# --- Wizards -----------------------------------------------------------------------------------


class Wizards(Ability):
    """TRIBE-WIZ-1: after discarding the rest of the hand, draw X cards from the deck, or none
    (any number up to X under ``wizard_draw=up_to_x``)."""

    def handle_rest(self, state: GameState, ctx: BandContext) -> GameState:
        state = _bands.discard_rest(state, ctx.seat)
        return attrs.evolve(state, pending=WizardPending(ctx))


@attrs.frozen(slots=True)
class WizardPending(_Pending):
    """Wizards: how many cards to draw (TRIBE-WIZ-1)."""

    ctx: BandContext
    rule: ClassVar[str] = "TRIBE-WIZ-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (WizardDraw,)

    def _counts(self, state: GameState) -> tuple[int, ...]:
        if state.options.wizard_draw == "up_to_x":
            return tuple(range(self.ctx.size + 1))
        return (self.ctx.size, 0)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return tuple(WizardDraw(n) for n in self._counts(state))

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, WizardDraw)
        if action.count not in self._counts(state):
            allowed = " or ".join(map(str, self._counts(state)))
            raise IllegalActionError(
                "TRIBE-WIZ-1", f"Wizards with X = {self.ctx.size} draw {allowed} cards", action
            )
        if action.count == 0:
            return _turn.end_turn(state, self.ctx.seat)
        return attrs.evolve(state, pending=WizardDrawPending(self.ctx.seat, action.count))

    def describe(self) -> str:
        return f"seat {self.ctx.seat}: Wizards draw X cards or none"


@attrs.frozen(slots=True)
class WizardDrawPending(_turn.DeckDraw):
    """Chance: the next card a Wizard draws; ``left`` draws remain (TRIBE-WIZ-1, RECRUIT-3/4)."""

    wizard: int
    left: int
    rule: ClassVar[str] = "TRIBE-WIZ-1"

    def drawer(self) -> int:
        return self.wizard

    def receive(self, state: GameState, card: Card) -> GameState:
        state = _turn.take_card(state, self.wizard, card)
        if self.left > 1:
            return attrs.evolve(state, pending=WizardDrawPending(self.wizard, self.left - 1))
        return _turn.end_turn(state, self.wizard)

    def describe(self) -> str:
        return f"chance: the card seat {self.wizard}'s Wizards draw ({self.left} left)"


# --- the first edition ---------------------------------------------------------------------------

FIRST_EDITION: Ruleset = register_ruleset(
    Ruleset(
        name="1e",
        tribes=[
            ("CEN", "Centaurs", Centaurs(), False),
            ("DWA", "Dwarves", Dwarves(), False),
            ("ELF", "Elves", Elves(), False),
            ("GIA", "Giants", Giants(), False),
            ("HAL", "Halflings", Halflings(), False),
            ("MER", "Merfolk", Merfolk(), False),
            ("MIN", "Minotaurs", Minotaurs(), False),
            ("ORC", "Orcs", Orcs(), False),
            ("SKE", "Skeletons", Skeletons(), True),
            ("TRO", "Trolls", Trolls(), False),
            ("WIN", "Wingfolk", Wingfolk(), False),
            ("WIZ", "Wizards", Wizards(), False),
        ],
        copies_per_colour={"HAL": 4},
        wild_copies=12,
        band_glory=(0, 1, 3, 6, 10, 15),
        troll_tokens=(1, 2, 3, 4, 5, 6),
        orc_glory=(1, 3, 6, 10, 15, 20),
        giant_values=((2, 4, 6), (2, 5)),
        dragons=3,
        markers=26,
        hand_limit=10,
    )
)
"""The first-edition components (spec §1)."""
