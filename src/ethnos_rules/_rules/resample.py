"""A whole game drawn from what one seat knows: the hidden cards from their exact posterior.

A record kept at one seat leaves some cards unnamed: ``reveal ?`` for a card another player
draws (a *slot* below), ``keep ?`` for a card their Elves keep. :func:`resample_game` names
them all, so that the game is complete and legal, seat ``s`` would have recorded it just so, and
each such game comes with the probability the uniform shuffles give it, given the record.

Why it is exact. Within an Age the deck is a uniform shuffle, so every sequence of physical cards
drawn is equally likely. Every card that seat ``s`` sees drawn is fixed; every slot takes one of
the other cards of the Age's deck (the *pool*), each physical card at most once, and the timing
of a draw does not matter: any card in the pool was in the deck at every draw of the Age it does
not appear in. The Dragons' place depends only on counts, which the record shows. The players'
choices are taken to tell nothing beyond being legal. So the posterior is uniform over the
injective assignments of pool cards to slots that fit what seat ``s`` saw; by card kind, a
labelling with ``h_k`` slots of kind ``k`` weighs ``prod_k r_k (r_k - 1) ... (r_k - h_k + 1)``,
``r_k`` being the pool's cards of kind ``k``.

What a labelling must fit is, for each other player, a timeline: slots, cards taken from the row
(known), cards shown (bands, the rest of a hand), and points where the whole hand is known (an
empty hand, or a pass: only Skeletons). Between the cards of one kind, the constraints are
separate: before each show, the slots of kind ``k`` so far, with the known ``k`` taken, cover
the ``k`` shown so far. So:

1. A *closed* segment (from one point where the hand is known to the next) holds a fixed
   multiset of kinds; every arrangement of it that fits weighs the same. It is drawn uniformly
   among them, by counting (:func:`_draw_segment`), independently of everything else.
2. An *open* segment (the last of the Age, its hand never known again) that shows cards (the
   Elves keep cards, then a band shows some) is drawn by a weighted count over the kinds it must
   show; its other slots take cards from the pool as drawn. Two such segments share the pool:
   each is proposed on its own and the whole proposal accepted with the ratio of the shared
   weight to the separate ones (at most 1), which is exact rejection sampling.
3. Every other slot is a plain draw without replacement from what is left of the pool.

An Elves' ``keep ?`` is then fixed: the kept cards are the hand less the rest shown.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

import attrs

from .actions import Action, Keep, RestShown, Reveal
from .bands import leaders
from .chance import DrawPending
from .components import Card
from .engine import step
from .errors import RulesError
from .events import AgeBegan, AgeEnded, BandPlayed, CardDrawn, Passed, Recruited, RestToRow
from .notation import parse_action
from .replay import Decision, Playthrough, Refusal
from .seatview import seat_actions, seat_decisions
from .state import GameState
from .tribes import KeepPending

# --- the timelines of one Age -------------------------------------------------------------------


@attrs.frozen
class _Slot:
    """A card drawn unseen: the index of its ``reveal ?``."""

    index: int


@attrs.frozen
class _In:
    """A known card into the hand (taken from the row)."""

    card: Card


@attrs.frozen
class _Show:
    """Cards of the hand shown: a band, or the rest of the hand."""

    cards: Counter[Card]


@attrs.frozen
class _Known:
    """The whole hand is known here: empty, or Skeletons only after a pass."""

    hand: Counter[Card]


Entry = _Slot | _In | _Show | _Known


@attrs.define
class _Age:
    """One Age as one seat saw it: the pool, and every other player's timeline."""

    pool: Counter[Card]
    timelines: dict[int, list[Entry]]
    sizes: dict[int, int]

    @classmethod
    def begin(cls, state: GameState, seat: int) -> _Age:
        """An Age whose deck is ``state``'s and whose other hands are empty."""
        if any(p.hand for q, p in enumerate(state.players) if q != seat):
            raise ValueError("resampling starts where the other players' hands are empty")
        cards = state.rules.cards
        pool = Counter({cards[i]: n for i, n in enumerate(state.deck) if n})
        others = [q for q in range(len(state.players)) if q != seat]
        return cls(pool, {q: [] for q in others}, {q: 0 for q in others})

    def add(self, player: int, entry: Entry, change: int) -> None:
        """``entry`` in ``player``'s timeline, the hand growing by ``change``; an empty hand
        after a show is known."""
        self.timelines[player].append(entry)
        self.sizes[player] += change
        if isinstance(entry, _Show) and self.sizes[player] == 0:
            self.timelines[player].append(_Known(Counter()))


def _ages(start: GameState, played: Sequence[Decision], seat: int) -> list[_Age]:
    """The Ages of a replayed one-seat record, with the timelines of the other players."""
    ages = [_Age.begin(start, seat)]
    for decision in played:
        age = ages[-1]
        pending = decision.before.pending
        if decision.action.hidden and isinstance(pending, DrawPending):
            receiver = pending.receiver(decision.before)
            assert receiver is not None and receiver != seat
            age.add(receiver, _Slot(decision.index), +1)
        for event in decision.events:
            if isinstance(event, AgeEnded):
                ages.append(age := _Age(Counter(), {}, {}))  # nothing is drawn between Ages
            elif isinstance(event, AgeBegan):
                ages.append(age := _Age.begin(decision.after, seat))
            elif isinstance(event, CardDrawn) and age.pool:
                age.pool[event.card] -= 1
            elif getattr(event, "seat", seat) == seat or not age.timelines:
                continue
            elif isinstance(event, Recruited) and event.card is not None:
                age.add(event.seat, _In(event.card), +1)
            elif isinstance(event, BandPlayed):
                age.add(event.seat, _Show(Counter(event.band.cards)), -len(event.band.cards))
            elif isinstance(event, RestToRow):
                age.add(event.seat, _Show(Counter(event.cards)), -len(event.cards))
            elif isinstance(event, Passed):
                # A hand that forms no band holds no card that can lead one (TURN-3).
                leads = leaders(start.rules)
                skeleton = next(c for c in start.rules.cards if c not in leads)
                age.add(event.seat, _Known(Counter({skeleton: age.sizes[event.seat]})), 0)
    return ages


# --- segments -------------------------------------------------------------------------------------


@attrs.frozen
class _Segment:
    """The slots of one player between two points where the hand is known (or the end of the
    Age): ``needs[i]`` is what the first ``i`` slots must hold at least, ``exact`` what all of
    them hold in a closed segment (None in an open one)."""

    slots: tuple[int, ...]
    needs: tuple[tuple[int, Counter[Card]], ...]
    exact: Counter[Card] | None

    @property
    def constrained(self) -> bool:
        """Whether any kind is asked of the slots."""
        return self.exact is not None or any(+need for _, need in self.needs)

    def kinds(self) -> tuple[Card, ...]:
        """The kinds some constraint asks for, in card order."""
        wanted: Counter[Card] = Counter(self.exact or {})
        for _, need in self.needs:
            wanted |= +need
        return tuple(sorted(wanted))

    def caps(self) -> tuple[int, ...]:
        """The most copies of each of :meth:`kinds` a constraint asks for."""
        cap: Counter[Card] = Counter(self.exact or {})
        for _, need in self.needs:
            cap |= +need
        return tuple(cap[k] for k in self.kinds())


def _segments(timeline: Sequence[Entry]) -> Iterator[_Segment]:
    """Cut a timeline where the hand is known."""
    carry: Counter[Card] = Counter()
    slots: list[int] = []
    needs: list[tuple[int, Counter[Card]]] = []
    held = Counter(carry)  # known cards in, less cards shown, so far
    for entry in timeline:
        if isinstance(entry, _Slot):
            slots.append(entry.index)
        elif isinstance(entry, _In):
            held[entry.card] += 1
        elif isinstance(entry, _Show):
            held.subtract(entry.cards)
            needs.append((len(slots), Counter({k: -n for k, n in held.items() if n < 0})))
        else:
            held.subtract(entry.hand)
            if any(n > 0 for n in held.values()):
                raise AssertionError("a known card is neither shown nor in the hand known")
            yield _Segment(tuple(slots), tuple(needs), -held)
            carry, slots, needs = Counter(entry.hand), [], []
            held = Counter(carry)
    yield _Segment(tuple(slots), tuple(needs), None)


# --- drawing the kinds of one segment ----------------------------------------------------------


MAX_STATES = 200_000
"""The most counting states one player's part of an Age may take (a bound on time and memory;
whole random games need fewer than a hundred)."""


class _Counting:
    """The total weight of every labelling of a segment's slots that fits, from any point.

    A state is, for each kind asked for, how many slots of that kind there are so far, counted
    up to the most any constraint asks (beyond it a kind is like any other). A slot takes an
    asked-for kind below its cap (weight: its cards left in the pool) or any other card (weight:
    every card left in the pool but those of the asked-for kinds below their caps).
    """

    def __init__(self, segment: _Segment, pool: Counter[Card]) -> None:
        self.segment = segment
        self.kinds = segment.kinds()
        self.caps = segment.caps()
        self.pool = tuple(pool[k] for k in self.kinds)
        self.total = pool.total()
        self.length = len(segment.slots) if segment.exact is not None else _last_need(segment)
        self.checks: dict[int, list[tuple[int, int]]] = {}
        for at, need in segment.needs:
            for k, n in need.items():
                if n > 0:
                    self.checks.setdefault(at, []).append((self.kinds.index(k), n))
        self.weight = lru_cache(maxsize=None)(self._weight)

    def fits(self, at: int, state: tuple[int, ...]) -> bool:
        """Whether the first ``at`` slots, as ``state`` counts them, fit the needs there."""
        return all(state[i] >= n for i, n in self.checks.get(at, ()))

    def moves(self, at: int, state: tuple[int, ...]) -> Iterator[tuple[int | None, int]]:
        """Each kind the next slot may take (its place in :attr:`kinds`, or None for any
        other card), with its weight."""
        for i, (have, cap, cards) in enumerate(zip(state, self.caps, self.pool, strict=True)):
            if have < cap and cards > have:
                yield i, cards - have
        if self.segment.exact is None:
            asked = sum(
                c - h for h, cap, c in zip(state, self.caps, self.pool, strict=True) if h < cap
            )
            other = self.total - at - asked
            if other > 0:
                yield None, other

    def _weight(self, at: int, state: tuple[int, ...]) -> int:
        if self.weight.cache_info().currsize > MAX_STATES:
            raise RulesError(
                "CHANCE",
                f"the cards one player kept unseen and showed later in this Age fit in more than"
                f" {MAX_STATES:,} ways to count; this record is too tangled to resample exactly",
            )
        if not self.fits(at, state):
            return 0
        if at == self.length:
            exact = self.segment.exact is None or state == self.caps
            return 1 if exact else 0
        total = 0
        for i, w in self.moves(at, state):
            after = state if i is None else _bump(state, i)
            total += w * self.weight(at + 1, after)
        return total


def _bump(state: tuple[int, ...], i: int) -> tuple[int, ...]:
    return (*state[:i], state[i] + 1, *state[i + 1 :])


def _last_need(segment: _Segment) -> int:
    return max((at for at, need in segment.needs if +need), default=0)


def _draw_segment(segment: _Segment, pool: Counter[Card], rng: random.Random) -> dict[int, Card]:
    """Kinds for the slots of ``segment`` up to its last constraint, drawn with their exact
    weights; each other card is drawn from the pool as it is then."""
    counting = _Counting(segment, pool)
    state = tuple(0 for _ in counting.kinds)
    if counting.weight(0, state) == 0:
        raise AssertionError("no cards the seat did not see fit what this player showed")
    left = Counter(pool)
    labels: dict[int, Card] = {}
    for at in range(counting.length):
        options = [
            (i, w * counting.weight(at + 1, state if i is None else _bump(state, i)))
            for i, w in counting.moves(at, state)
        ]
        i = _choose(options, rng)
        if i is None:
            asked = {
                k for k, h, cap in zip(counting.kinds, state, counting.caps, strict=True) if h < cap
            }
            card = _draw(Counter({k: n for k, n in left.items() if k not in asked}), rng)
        else:
            card, state = counting.kinds[i], _bump(state, i)
        labels[segment.slots[at]] = card
        left[card] -= 1
    return labels


def _choose(options: Sequence[tuple[int | None, int]], rng: random.Random) -> int | None:
    roll = rng.randrange(sum(w for _, w in options))
    for choice, w in options:
        roll -= w
        if roll < 0:
            return choice
    raise AssertionError("weights do not add up")


def _draw(cards: Counter[Card], rng: random.Random) -> Card:
    """One card drawn uniformly from the multiset ``cards``."""
    roll = rng.randrange(cards.total())
    for card in sorted(cards):
        roll -= max(cards[card], 0)
        if roll < 0:
            return card
    raise AssertionError("no card to draw")


def _falling(pool: Counter[Card], labels: Counter[Card]) -> int:
    """The ways to give ``labels`` distinct physical cards of ``pool``."""
    ways = 1
    for card, n in labels.items():
        for j in range(n):
            ways *= max(pool[card] - j, 0)
    return ways


def _draw_age(age: _Age, rng: random.Random) -> dict[int, Card]:
    """Kinds for every slot of the Age, from their exact posterior."""
    labels: dict[int, Card] = {}
    pool = Counter(age.pool)
    segments = [s for t in age.timelines.values() for s in _segments(t) if s.slots]
    for segment in (s for s in segments if s.exact is not None):
        drawn = _draw_segment(segment, pool, rng)
        labels.update(drawn)
        pool -= Counter(drawn.values())
    open_ = [s for s in segments if s.exact is None and s.constrained]
    while True:
        proposed = [_draw_segment(s, pool, rng) for s in open_]
        shared, separate, left = 1, 1, Counter(pool)
        for drawn in proposed:
            kinds = Counter(drawn.values())
            shared *= _falling(left, kinds)
            separate *= _falling(pool, kinds)
            left -= kinds
        if rng.randrange(separate) < shared:
            break
    for drawn in proposed:
        labels.update(drawn)
    pool = left
    for segment in segments:
        for index in segment.slots:
            if index not in labels:
                labels[index] = card = _draw(pool, rng)
                pool[card] -= 1
    return labels


# --- the whole game -----------------------------------------------------------------------------


def resample_game(
    start: GameState, actions: Sequence[Action | str], seat: int, rng: random.Random
) -> Playthrough:
    """A whole game that fits ``actions``, a record kept at ``seat`` from ``start`` (where the
    other players hold no cards), drawn from the exact posterior.

    Raises:
        RulesError: the record fits no game (the refusal :func:`seat_decisions` gives, with a
            note naming the decision); or (rule ``CHANCE``) one player's unseen cards are
            tangled beyond :data:`MAX_STATES` counting states.
    """
    played: list[Decision] = []
    for item in seat_decisions(start, actions, seat):
        if isinstance(item, Refusal):
            item.error.add_note(f"at decision {item.index}: {item.text!r}")
            raise item.error
        played.append(item)
    labels: dict[int, Card] = {}
    for age in _ages(start, played, seat):
        labels.update(_draw_age(age, rng))
    items = [d.action for d in played]
    game = _complete(start, _with_rests(items, actions), labels)
    if seat_actions(start, game.actions, seat) != tuple(_with_rests(items, actions)):
        raise AssertionError("the game drawn does not look as the record from its seat")
    return game


def _with_rests(played: Sequence[Action], actions: Sequence[Action | str]) -> list[Action]:
    """The record's items as actions: the decisions played, and each ``rest`` in its place."""
    parsed = [a if isinstance(a, Action) else parse_action(a) for a in actions]
    assert [a for a in parsed if not isinstance(a, RestShown)] == list(played)
    return parsed


def _complete(start: GameState, actions: Sequence[Action], labels: dict[int, Card]) -> Playthrough:
    """The record with each slot named, each ``keep ?`` fixed by the rest shown after it, and
    no ``rest``."""
    out: list[Action] = []
    state = start
    for index, action in enumerate(actions):
        if isinstance(action, RestShown):
            continue
        if isinstance(action, Reveal) and action.hidden:
            action = Reveal(labels[index])
        elif isinstance(action, Keep) and action.hidden:
            action = _kept(state, actions, index)
        out.append(action)
        state = step(state, action).state
    return Playthrough(start, tuple(out), state)


def _kept(state: GameState, actions: Sequence[Action], index: int) -> Keep:
    """The next card the Elves keep: the lowest of the hand that is neither kept yet nor in the
    rest that the record shows after the keeping."""
    pending = state.pending
    assert isinstance(pending, KeepPending)
    after = index
    while after < len(actions) and isinstance(actions[after], Keep):
        after += 1
    shown = actions[after] if after < len(actions) else None
    rest = Counter(shown.cards) if isinstance(shown, RestShown) else Counter()
    hand = Counter(state.players[pending.seat].hand) - Counter(pending.kept) - rest
    return Keep(min(hand))
