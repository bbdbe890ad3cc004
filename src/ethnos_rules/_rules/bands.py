"""Playing a band (spec §6, ``BAND-*``): validity, Leader, kingdom placement, and the order of
what follows (BAND-6): placement → Leader ability → the rest of the hand.

A band in resolution is described by a :class:`BandContext`; each step either needs a decision
(a :class:`~ethnos_rules._state.Pending` holding the context) or runs at once and hands on to the
next step. Tribe abilities plug into the steps through :class:`~ethnos_rules._tribes.Ability`.
"""

from __future__ import annotations

import bisect
import functools
from collections import Counter
from operator import attrgetter
from typing import Any, ClassVar, Literal

import attrs

from . import turn as _turn
from .actions import Action, Place, PlayBand, StopChain
from .components import (
    Card,
    Colour,
    Kingdom,
    Ruleset,
    Tribe,
    TribeAbility,
    multiset_add,
    multiset_remove,
)
from .errors import IllegalActionError
from .events import (
    BandPlayed,
    Blocked,
    ChainOffered,
    ChainStopped,
    MarkerPlaced,
    PlacementDeclined,
    PlacementTest,
    Reason,
    RestToRow,
    emit,
)
from .frozen import UNCHANGED, evolve, maker, slot_setters
from .said import said
from .state import (
    Band,
    DecisionKind,
    GameState,
    Pending,
    copy_player,
    copy_state,
    replace_seat,
)


# No __weakref__ slot: frozen.py copies the context through a draft of the same layout.
@attrs.frozen(slots=True, weakref_slot=False)
class BandContext:
    """The band being resolved.

    Attributes:
        seat: Its player.
        band: The band as played.
        chain: 0 for the turn's first band, 1 for a band played through a Centaur, and so on.
        placed: Whether it placed a marker in a kingdom (TRIBE-CEN-1).
    """

    seat: int
    band: Band
    chain: int
    placed: bool

    @property
    def size(self) -> int:
        """X (BAND-8)."""
        return self.band.size

    @property
    def leader(self) -> Card:
        """The Leader card."""
        return self.band.leader


class BandStep(Pending):
    """A decision about the band being resolved, ``ctx``, taken by its player."""

    __slots__ = ()

    ctx: BandContext

    @property
    def seat(self) -> int:
        return self.ctx.seat

    def facts(self, state: GameState) -> dict[str, Any]:
        """The band being resolved, and its place in a Centaur chain (0 for the turn's first)."""
        return {"band": self.ctx.band, "chain": self.ctx.chain}

    def problems(self, state: GameState) -> list[str]:
        """The band is its player's last, at a place in a Centaur chain the rules allow."""
        ctx = self.ctx
        bands = state.players[ctx.seat].bands
        if not bands or bands[-1] != ctx.band:
            return [f"the band being resolved ({ctx.band}) is not seat {ctx.seat}'s last band"]
        earlier = bands[-1 - ctx.chain : -1] if ctx.chain > 0 else ()
        single = state.options.centaur_chain == "single"
        if (
            ctx.chain < 0
            or ctx.chain >= len(bands)
            or (single and ctx.chain > 1)
            or not all(b.leader.tribe.ability.chains for b in earlier)
        ):
            return [f"the band {ctx.band} cannot be band {ctx.chain + 1} of a Centaur chain"]
        return []


# --- which bands exist ------------------------------------------------------------------------


# Within a turn the same hand is asked for again (legal_actions, pass, chains); a small cache
# keeps that cheap without growing in long-running bots (4096 hands: same speed as 65536).
@functools.lru_cache(maxsize=4096)
def band_actions(hand: tuple[Card, ...]) -> tuple[PlayBand, ...]:
    """Every distinct band that ``hand`` can form, each with each possible Leader kind.

    Same-tribe bands come first (by tribe), then same-colour bands of two or more tribes (by
    colour). A band of one card kind is a same-tribe band only, so none is listed twice.
    """
    wild: list[Card] = []
    tribes: dict[Tribe, list[Card]] = {}  # each in card order, as the hand
    colours: dict[Colour, list[Card]] = {}
    for card in hand:
        if card.wild:
            wild.append(card)
            continue
        tribes.setdefault(card.tribe, []).append(card)
        if card.colour is not None:
            colours.setdefault(card.colour, []).append(card)
    skeletons = tuple(wild)
    out: list[PlayBand] = []
    for group in tribes.values():  # the tribes in card order
        out += _group_actions(tuple(group), skeletons, True)
    for colour in sorted(colours):
        group = colours[colour]
        if group[0] is not group[-1]:  # one kind of a colour is one tribe: listed above
            out += _group_actions(tuple(group), skeletons, False)
    return tuple(out)


# A new hand is most often an old one with a card more or fewer: all its groups but one or two
# (a tribe, a colour) are groups seen before. Remembering each group's bands makes a hand never
# seen cost its grouping and one group's bands, not all of them.
@functools.lru_cache(maxsize=8192)
def _group_actions(
    group: tuple[Card, ...], wild: tuple[Card, ...], singles: bool
) -> tuple[PlayBand, ...]:
    """The bands of the cards ``group`` (one tribe, or one colour) with the Skeletons ``wild``:
    a band of one card kind only if ``singles``."""
    counts: dict[Card, int] = {}
    for card in group:
        counts[card] = counts.get(card, 0) + 1
    out: list[PlayBand] = []
    _group_bands(list(counts), counts, list(wild), singles, out)
    return tuple(out)


def leaders(rules: Ruleset) -> tuple[Card, ...]:
    """The card kinds that can lead a band: every kind but the Skeletons (BAND-4). A hand
    forms no band exactly when it holds none of them, so a pass (TURN-3) shows a hand of
    Skeletons only."""
    return _leaders(rules)


@functools.cache
def _leaders(rules: Ruleset) -> tuple[Card, ...]:
    return tuple(c for c in rules.cards if band_actions((c,)))


_INDEX = attrgetter("index")

# A hand may form 1,512 bands, each built here and valid by construction (cards of the hand,
# the others in card order): they are made by setting PlayBand's two slots, as frozen.maker
# does, without the generated __init__ (a quarter of the time of a cold enumeration), and
# without a call per band (the loop stores them). test_bands checks they equal, hash, print
# and pickle as PlayBand(leader, others) does.
_new = object.__new__
_SLOTS = slot_setters(PlayBand, ["leader", "others"])
assert _SLOTS is not None, "PlayBand keeps its fields in slots"
_set_leader, _set_others = _SLOTS["leader"], _SLOTS["others"]


def _group_bands(
    kinds: list[Card],
    counts: dict[Card, int],
    skeletons: list[Card],
    singles: bool,
    out: list[PlayBand],
) -> None:
    # Every sub-multiset of the group as a sorted tuple (kinds are in card order), the last
    # kind varying fastest: the sub-multiset holding m_k copies of each kind k is at the sum of
    # m_k * stride[k]. A band is a Leader and the sub-multiset left when one copy of it is
    # taken out, which is at the index less the Leader's stride: the tuples are all shared.
    subs: list[tuple[Card, ...]] = [()]
    held: list[tuple[Card, ...]] = [()]  # the kinds each holds
    stride: dict[Card, int] = {}
    for kind in kinds:
        stride = {k: step * (counts[kind] + 1) for k, step in stride.items()}
        stride[kind] = 1
        takes = [((kind,) * m, (kind,) if m else ()) for m in range(counts[kind] + 1)]
        held = [present + k for present in held for _, k in takes]
        subs = [sub + add for sub in subs for add, _ in takes]
    # Skeletons sit at one place in card order: before every card of a later tribe. Each
    # sub-multiset with one, … every Skeleton added:
    wild = tuple(skeletons)
    cut = wild[0].index if wild else 0
    no_wild: list[tuple[Card, ...]] = []
    wilder = (
        [
            [sub[:at] + wild[:n] + sub[at:] for n in range(1, len(wild) + 1)]
            for sub, at in ((sub, bisect.bisect_left(sub, cut, key=_INDEX)) for sub in subs)
        ]
        if wild
        else [no_wild] * len(subs)
    )
    new, set_leader, set_others, append = _new, _set_leader, _set_others, out.append
    for index, present in enumerate(held):
        if not present or (len(present) == 1 and not singles):
            continue
        for leader in present:
            rest = index - stride[leader]
            band = new(PlayBand)
            set_leader(band, leader)
            set_others(band, subs[rest])
            append(band)
            for others in wilder[rest]:
                band = new(PlayBand)
                set_leader(band, leader)
                set_others(band, others)
                append(band)


def band_problem(hand: tuple[Card, ...], action: PlayBand) -> tuple[str, str] | None:
    """Why ``action`` is not a band this hand can play, as (rule id, reason), or None."""
    return _hand_after(hand, action)[1]


def _hand_after(
    hand: tuple[Card, ...], action: PlayBand
) -> tuple[tuple[Card, ...], tuple[str, str] | None]:
    """The hand without the band's cards, and why the band is not one this hand can play (None
    when it is): one pass over the hand does both."""
    left = list(hand)
    try:
        left.remove(action.leader)
        for card in action.others:
            left.remove(card)
    except ValueError:
        missing = Counter(action.cards) - Counter(hand)
        names = ", ".join(str(c) for c in sorted(missing.elements()))
        return hand, (
            "BAND-1",
            said("the band uses cards that are not in the hand: {cards}", cards=names),
        )
    return tuple(left), _shape_problem(action)


def _shape_problem(action: PlayBand) -> tuple[str, str] | None:
    """BAND-2..4: why the band's cards do not make a band, or None."""
    leader = action.leader
    if leader.wild:
        if all(c.wild for c in action.others):
            return "BAND-3", said("a band needs at least one non-Skeleton card")
        return "BAND-4", said("a Skeleton can never be the Leader (TRIBE-SKE-1)")
    tribe = colour = True  # every non-Skeleton card shares the Leader's tribe, its colour
    for card in action.others:
        if not card.wild:
            tribe = tribe and card.tribe is leader.tribe
            colour = colour and card.colour is leader.colour
    if not (tribe or colour):
        return "BAND-2", said("the non-Skeleton cards share neither a tribe nor a colour")
    return None


def play_band(state: GameState, seat: int, action: PlayBand, chain: int) -> GameState:
    """Lay down the band and name its Leader (BAND-6), then go on to placement."""
    player = state.players[seat]
    hand, problem = _hand_after(player.hand, action)
    if problem is not None:
        raise IllegalActionError(*problem, action)
    band = new_band(action.leader, action.others)
    emit(BandPlayed, seat, band, chain)
    player = copy_player(player, hand=hand, bands=(*player.bands, band))
    ctx = new_context(seat, band, chain, False)
    return begin_placement(state.with_player(seat, player), ctx)


# A band and its context are built at every band: through their drafts (see frozen.py).
new_band = maker(Band)
new_context = maker(BandContext)


# --- kingdom placement ------------------------------------------------------------------------


def counted_markers(state: GameState, seat: int, kingdom: Kingdom) -> tuple[int, ...]:
    """The markers a band's effective size must exceed to place in ``kingdom`` (BAND-5): the
    player's own, or both players' in a 2-player game."""
    return tuple(state.players[s].kingdoms[kingdom] for s in counting_seats(state, seat))


def counting_seats(state: GameState, seat: int) -> tuple[int, ...]:
    """Whose markers a band of ``seat`` must beat (BAND-5): its own, or both players' in a
    2-player game."""
    return _BOTH if state.config.players == 2 else (seat,)


_BOTH = (0, 1)


def effective_size(ctx: BandContext) -> int:
    """X plus the Leader's placement bonus (BAND-5, TRIBE-MIN-1)."""
    band = ctx.band  # (the band's own fields: this runs at every band)
    return band.size + band.leader.tribe.ability.placement_bonus


def candidate_kingdoms(state: GameState, ctx: BandContext) -> tuple[Kingdom, ...]:
    """The kingdoms the size test is made for: the Leader's colour, or any kingdom of the
    edition with a Wingfolk Leader (TRIBE-WIN-1); none for a Halfling Leader (TRIBE-HAL-1) or
    a player without a marker in supply (BAND-5)."""
    leader = ctx.band.leader
    ability = leader.tribe.ability
    if not ability.places or not state.players[ctx.seat].supply:
        return ()
    assert leader.colour is not None
    return state.config.ruleset.kingdoms if ability.any_kingdom else (leader.colour.kingdom,)


def placement_blocked(state: GameState, ctx: BandContext) -> Blocked | None:
    """Why :func:`candidate_kingdoms` is empty: ``"never"`` or ``"supply"``, else None."""
    if candidate_kingdoms(state, ctx):
        return None
    return "supply" if ctx.leader.tribe.ability.places else "never"


def _passing(
    state: GameState, ctx: BandContext, kingdoms: tuple[Kingdom, ...]
) -> tuple[Kingdom, ...]:
    """BAND-5: the kingdoms where the effective size is larger than the counted markers."""
    if not kingdoms:
        return ()
    size = effective_size(ctx)
    players = state.players
    seats = counting_seats(state, ctx.seat)
    if len(seats) == 1:  # the common case, without summing
        own = players[seats[0]].kingdoms
        if len(kingdoms) == 1:  # the commonest: the Leader's kingdom alone
            return kingdoms if size > own[kingdoms[0]] else ()
        return tuple([k for k in kingdoms if size > own[k]])
    return tuple(k for k in kingdoms if size > sum(players[s].kingdoms[k] for s in seats))


def placement_options(state: GameState, ctx: BandContext) -> tuple[Kingdom, ...]:
    """The kingdoms where this band may place its marker (BAND-5, TRIBE-HAL-1, TRIBE-WIN-1)."""
    return _passing(state, ctx, candidate_kingdoms(state, ctx))


def placement_test(
    state: GameState, ctx: BandContext, kingdoms: tuple[Kingdom, ...] | None = None
) -> PlacementTest:
    """The size test of BAND-5 with its numbers, for the candidate kingdoms (or ``kingdoms``)."""
    ability = ctx.leader.tribe.ability
    tested = candidate_kingdoms(state, ctx) if kingdoms is None else kingdoms
    return PlacementTest(
        seat=ctx.seat,
        leader=ctx.leader,
        size=ctx.size,
        bonus=ability.placement_bonus,
        counted=tuple((k, counted_markers(state, ctx.seat, k)) for k in tested),
        allowed=_passing(state, ctx, tested),
        blocked=placement_blocked(state, ctx),
        any_kingdom=ability.any_kingdom and kingdoms is None,
    )


def placement_is_automatic(state: GameState, options: tuple[Kingdom, ...]) -> bool:
    """BAND-5a: under ``placement=mandatory`` a single possible kingdom is placed in at once."""
    return state.options.placement == "mandatory" and len(options) == 1


def begin_placement(state: GameState, ctx: BandContext) -> GameState:
    """BAND-5: offer the placement, or skip it when there is nothing to decide."""
    emit(placement_test, state, ctx)
    options = placement_options(state, ctx)
    if not options:
        return after_placement(state, ctx)
    if placement_is_automatic(state, options):
        return place(state, ctx, options[0], forced=True)
    return copy_state(state, pending=PlacePending(ctx))


def add_marker(state: GameState, seat: int, kingdom: Kingdom) -> GameState:
    """Move one marker of ``seat`` from supply onto ``kingdom``."""
    player = state.players[seat]
    kingdoms = list(player.kingdoms)
    kingdoms[kingdom] += 1
    player = copy_player(player, supply=player.supply - 1, kingdoms=tuple(kingdoms))
    return state.with_player(seat, player)


def place(state: GameState, ctx: BandContext, kingdom: Kingdom, forced: bool = False) -> GameState:
    """The band places its marker in ``kingdom``; then the Leader ability (BAND-6)."""
    state = add_marker(state, ctx.seat, kingdom)
    emit(_placed, state, ctx.seat, kingdom, "band", forced)
    return after_placement(state, evolve(ctx, placed=True))


def _placed(
    state: GameState, seat: int, kingdom: Kingdom, reason: Reason, forced: bool = False
) -> MarkerPlaced:
    return MarkerPlaced(seat, kingdom, reason, state.players[seat].kingdoms[kingdom], forced)


@attrs.frozen(slots=True)
class PlacePending(BandStep):
    """Where the band places its marker, or whether it does (BAND-5, BAND-5a)."""

    ctx: BandContext
    kind: ClassVar[DecisionKind] = DecisionKind.PLACEMENT
    rule: ClassVar[str] = "BAND-5"
    accepts: ClassVar[tuple[type[Action], ...]] = (Place,)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        places = tuple(Place(k) for k in placement_options(state, self.ctx))
        if state.options.placement == "optional":
            return (*places, Place(None))
        return places

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(action, Place)
        if action.kingdom is None:
            if state.options.placement == "mandatory":
                raise IllegalActionError(
                    "BAND-5a",
                    said("placement is mandatory under the option placement=mandatory"),
                    action,
                )
            emit(PlacementDeclined, self.ctx.seat)
            return after_placement(state, self.ctx)
        if action.kingdom not in placement_options(state, self.ctx):
            raise IllegalActionError("BAND-5", self._why_not(state, action.kingdom), action)
        return place(state, self.ctx, action.kingdom)

    def _why_not(self, state: GameState, kingdom: Kingdom) -> str:
        leader = self.ctx.leader
        assert leader.colour is not None
        if kingdom not in candidate_kingdoms(state, self.ctx):
            return said(
                "a band led by {leader} places only in {kingdom} (only a Wingfolk "
                "Leader may choose the kingdom, TRIBE-WIN-1)",
                leader=leader,
                kingdom=leader.colour.kingdom.label,
            )
        test = placement_test(state, self.ctx, (kingdom,))
        counted = test.counted[0][1]
        need = sum(counted)
        if len(counted) == 2:
            return said(
                "a band of effective size {effective} cannot place in {kingdom}: it "
                "must be larger than both players' {need} marker(s) there",
                effective=test.effective,
                kingdom=kingdom.label,
                need=need,
            )
        return said(
            "a band of effective size {effective} cannot place in {kingdom}: it must "
            "be larger than your {need} marker(s) there",
            effective=test.effective,
            kingdom=kingdom.label,
            need=need,
        )

    def describe(self) -> str:
        return said("seat {seat}: place the band's marker", seat=self.ctx.seat)

    def awaiting_ability(self) -> int:
        return self.ctx.seat

    def problems(self, state: GameState) -> list[str]:
        out = super().problems(state)
        if out:
            return out
        options = placement_options(state, self.ctx)
        if self.ctx.placed or not options:
            return [f"{self.describe()}: the band {self.ctx.band} has no marker to place (BAND-5)"]
        if placement_is_automatic(state, options):
            return [
                f"{self.describe()}: under placement=mandatory the only placement is made at once"
            ]
        return []


# --- after placement: the Leader's ability, then the rest of the hand (BAND-6) ------------------

Next = tuple[GameState, Pending | None]
"""What an ability's hook returns: the state, and the decision it asks for next (None: done).
A hook that copies the state anyway may set that decision in its copy (``discard_rest(...,
then=step)``): the band then goes on without another copy."""


def go_on(state: GameState, step: Pending) -> GameState:
    """``state`` with ``step`` to decide next: as it is if a hook set it already."""
    return state if state.pending is step else copy_state(state, pending=step)


class Ability(TribeAbility):
    """A Leader ability (BAND-4) with no effect; each tribe's class overrides what it changes.

    The band's steps read the flags (declared on the root class, in the components) and call the
    two hooks. A hook changes the state and may ask for a decision (an :class:`AbilityStep`); the
    band then goes on by itself, so an ability never calls into the turn.
    """

    def after_placement(self, state: GameState, ctx: BandContext) -> Next:
        """The ability's effect after placement (BAND-6); by default nothing."""
        return state, None

    def handle_rest(self, state: GameState, ctx: BandContext) -> Next:
        """What becomes of the rest of the hand; by default it all goes into the row (BAND-6).
        When this is done, the turn ends (None, or the next turn's decision set already)."""
        then = _turn.next_turn(state, ctx.seat)  # set in discard_rest's copy
        return discard_rest(state, ctx.seat, then=then), then


def after_placement(state: GameState, ctx: BandContext) -> GameState:
    """BAND-6: the Leader ability follows the placement."""
    # A ruleset holds an Ability for each tribe: the components check each, but type it by its
    # root class, as they do not import the band's steps (a cast would cost a call per band).
    ability: Ability = ctx.band.leader.tribe.ability  # type: ignore[assignment]
    state, step = ability.after_placement(state, ctx)
    if step is not None:
        return go_on(state, step)
    return after_ability(state, ctx)


def after_ability(state: GameState, ctx: BandContext) -> GameState:
    """The ability is done: a Centaur chain may follow, else the rest of the hand (BAND-6)."""
    if can_chain(state, ctx):
        emit(ChainOffered, ctx.seat)
        return copy_state(state, pending=ChainPending(ctx))
    return handle_rest(state, ctx)


def handle_rest(state: GameState, ctx: BandContext) -> GameState:
    """The last Leader handles the rest of the hand (BAND-6, TRIBE-CEN-3); then the turn ends."""
    ability: Ability = ctx.band.leader.tribe.ability  # type: ignore[assignment]  # as above
    state, step = ability.handle_rest(state, ctx)
    if step is not None:
        return go_on(state, step)
    return _turn.end_turn(state, ctx.seat)


def can_chain(state: GameState, ctx: BandContext) -> bool:
    """TRIBE-CEN-1/2: a Centaur-led band that placed a marker may be followed by another band."""
    if not (ctx.placed and ctx.band.leader.tribe.ability.chains):
        return False
    if ctx.chain > 0 and state.options.centaur_chain == "single":
        return False
    return bool(band_actions(state.players[ctx.seat].hand))


def discard_rest(
    state: GameState, seat: int, keep: tuple[Card, ...] = (), then: Pending = UNCHANGED
) -> GameState:
    """The hand, but for ``keep``, goes face up into the row (BAND-6); ``then`` is the decision
    that follows, set in the same copy of the state."""
    player = state.players[seat]
    rest = multiset_remove(player.hand, keep) if keep else player.hand
    if rest:
        emit(RestToRow, seat, rest)
    players = replace_seat(state.players, seat, copy_player(player, hand=keep))
    return copy_state(state, players=players, row=multiset_add(state.row, rest), pending=then)


class AbilityStep(BandStep):
    """A decision a Leader ability asks for. :meth:`resolve` says what the choice does; the
    band goes on by itself: after the ability (``part = "ability"``), or, for the rest of the
    hand (``part = "rest"``), to the end of the turn."""

    __slots__ = ()

    part: ClassVar[Literal["ability", "rest"]] = "ability"
    tribe_ability: ClassVar[type[Ability]]
    """The ability that asks for this decision."""

    def resolve(self, state: GameState, action: Action) -> Next:
        """The state after the choice, and the next decision the ability asks for, if any."""
        raise NotImplementedError

    def apply(self, state: GameState, action: Action) -> GameState:
        state, step = self.resolve(state, action)
        if step is not None:
            return go_on(state, step)
        if self.part == "ability":
            return after_ability(state, self.ctx)
        return _turn.end_turn(state, self.ctx.seat)

    def problems(self, state: GameState) -> list[str]:
        out = super().problems(state)
        if not out and not isinstance(self.ctx.leader.tribe.ability, self.tribe_ability):
            out.append(
                f"{self.describe()}: the band's Leader {self.ctx.leader} has no such ability"
            )
        if not out:
            out = self.step_problems(state)
        return out

    def step_problems(self, state: GameState) -> list[str]:
        """What in ``state`` contradicts the ability asking for this decision now."""
        return []


@attrs.frozen(slots=True)
class ChainPending(BandStep):
    """Centaurs: play another band from the remaining hand, or stop (TRIBE-CEN-1..3)."""

    ctx: BandContext
    kind: ClassVar[DecisionKind] = DecisionKind.CENTAUR_CHAIN
    rule: ClassVar[str] = "TRIBE-CEN-1"
    accepts: ClassVar[tuple[type[Action], ...]] = (PlayBand, StopChain)

    def legal(self, state: GameState) -> tuple[Action, ...]:
        return (*band_actions(state.players[self.ctx.seat].hand), StopChain())

    def apply(self, state: GameState, action: Action) -> GameState:
        if isinstance(action, PlayBand):
            return play_band(state, self.ctx.seat, action, self.ctx.chain + 1)
        # TRIBE-CEN-3: the last band's Leader (this Centaur) handles the rest of the hand.
        emit(ChainStopped, self.ctx.seat)
        return handle_rest(state, self.ctx)

    def describe(self) -> str:
        return said("seat {seat}: play another band (Centaurs) or stop", seat=self.ctx.seat)

    def problems(self, state: GameState) -> list[str]:
        out = super().problems(state)
        if not out and not can_chain(state, self.ctx):
            out.append(
                f"{self.describe()}: only a Centaur-led band that placed a marker chains"
                " (TRIBE-CEN-1)"
            )
        return out
