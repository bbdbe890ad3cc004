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
the ``k`` shown so far. A record that ends where another player is offered a Centaur chain
adds one more: that hand holds a card that can lead a band, so fewer Skeletons than cards. So:

1. A *closed* segment (from one point where the hand is known to the next) holds a fixed
   multiset of kinds; every arrangement of it that fits weighs the same. It is drawn by
   counting (:class:`_Joint`), independently of everything else.
2. The *open* segments (the last of the Age, the hand never known again) that show cards (the
   Elves keep cards, then a band shows some) share what is left of the pool: they are drawn
   together by one exact count of every labelling that fits them all (:class:`_Joint`, kind
   by kind; see there why its states stay few). Nothing is proposed and rejected, so nothing
   can stall; the count has a fixed bound (:data:`MAX_STEPS`), past which a ``CHANCE``
   refusal says the record is too tangled.
3. Every other slot is a plain draw without replacement from what is left of the pool.

An Elves' ``keep ?`` is then fixed: the kept cards are the hand less the rest shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import permutations
from math import comb, perm, prod
from typing import NamedTuple, TypeVar

import attrs

from .._replay.replay import Decision, Playthrough, Refusal
from .._rules.actions import Action, Keep, RestShown, Reveal
from .._rules.bands import ChainPending, leaders
from .._rules.chance import DrawPending
from .._rules.components import Card
from .._rules.engine import step
from .._rules.errors import RulesError
from .._rules.events import AgeBegan, AgeEnded, BandPlayed, CardDrawn, Passed, Recruited, RestToRow
from .._rules.notation import parse_action
from .._rules.randomness import Random, check_random, roll
from .._rules.said import said
from .._rules.state import GameState
from .._rules.tribes import KeepPending
from .seatview import seat_decisions, seen_items

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


@attrs.frozen
class _Leads:
    """The record ends where the player is offered a Centaur chain: the hand holds a card
    that can lead a band (TRIBE-CEN-1), so not only Skeletons."""

    skeleton: Card


Entry = _Slot | _In | _Show | _Known | _Leads


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
                skeleton = _skeleton(start)
                assert skeleton is not None  # a pass needs a hand of Skeletons
                age.add(event.seat, _Known(Counter({skeleton: age.sizes[event.seat]})), 0)
    last = played[-1].after.pending if played else None
    skeleton = _skeleton(start)
    # (in an edition without Skeletons every card leads, and a chain offer tells nothing more)
    if isinstance(last, ChainPending) and last.seat != seat and skeleton is not None:
        ages[-1].add(last.seat, _Leads(skeleton), 0)
    return ages


def _skeleton(start: GameState) -> Card | None:
    """The one kind that cannot lead a band (BAND-4), if the edition has one."""
    leads = leaders(start.rules)
    return next((c for c in start.rules.cards if c not in leads), None)


T = TypeVar("T")

# --- segments -------------------------------------------------------------------------------------


@attrs.frozen
class _Segment:
    """The slots of one player between two points where the hand is known (or the end of the
    Age): ``needs[i]`` is what the first ``i`` slots must hold at least, ``exact`` what all of
    them hold in a closed segment (None in an open one), and ``most`` the most copies of a kind
    all of them may hold: at the end of a record where another seat is offered a Centaur chain,
    the hand holds a card that can lead a band, so it is not all Skeletons."""

    slots: tuple[int, ...]
    needs: tuple[tuple[int, Counter[Card]], ...]
    exact: Counter[Card] | None
    most: Counter[Card] = attrs.field(factory=Counter)

    @property
    def constrained(self) -> bool:
        """Whether any kind is asked of the slots."""
        return self.exact is not None or bool(self.most) or any(+need for _, need in self.needs)


def _segments(timeline: Sequence[Entry]) -> Iterator[_Segment]:
    """Cut a timeline where the hand is known."""
    slots: list[int] = []
    needs: list[tuple[int, Counter[Card]]] = []
    held: Counter[Card] = Counter()  # known cards in, less cards shown, so far
    most: Counter[Card] = Counter()
    for entry in timeline:
        if isinstance(entry, _Slot):
            slots.append(entry.index)
        elif isinstance(entry, _In):
            held[entry.card] += 1
        elif isinstance(entry, _Show):
            held.subtract(entry.cards)
            needs.append((len(slots), Counter({k: -n for k, n in held.items() if n < 0})))
        elif isinstance(entry, _Leads):
            most = _leading(entry.skeleton, held, len(slots))
        else:
            held.subtract(entry.hand)
            if any(n > 0 for n in held.values()):
                raise _defect("a card the seat saw taken is neither shown nor in the hand known")
            yield _Segment(tuple(slots), tuple(needs), -held)
            slots, needs, held = [], [], Counter(entry.hand)
    yield _Segment(tuple(slots), tuple(needs), None, most)


def _leading(skeleton: Card, held: Counter[Card], slots: int) -> Counter[Card]:
    """The most Skeletons the slots so far may hold for the hand to hold a card that can lead
    a band (nothing asked if a card the seat saw taken, and not shown, can)."""
    if any(n > 0 and card != skeleton for card, n in held.items()):
        return Counter()
    size = slots + held.total()  # the hand now
    return Counter({skeleton: size - 1 - held[skeleton]})


def _defect(why: str) -> RulesError:
    """A record :func:`seat_decisions` accepted, for which the sampler finds no game: a defect
    of this library, told as a refusal that asks to be reported."""
    return RulesError(
        "CHANCE",
        said(
            "{why}, though the record was accepted: this is a defect of "
            "ethnos-rules; please report it with the record",
            why=why,
        ),
    )


# --- counting the labellings of segments --------------------------------------------------------


MAX_STEPS = 250_000
"""The most counting steps the unseen cards of one record may take: a bound on time (about a
second here) and memory. The hardest records met, six players drawing blind and keeping Elves
cards they show late, take up to about 120,000."""


@attrs.frozen
class _Shape:
    """A segment as counting sees it: its slots up to the last point where something is asked,
    cut into *stretches* at those points; for each kind asked, the least count of it the slots
    up to the end of each stretch hold, and the most all of them may hold (None: no bound)."""

    segment: _Segment
    ends: tuple[int, ...]
    least: dict[Card, tuple[int, ...]]
    most: dict[Card, int | None]

    @classmethod
    def of(cls, segment: _Segment) -> _Shape:
        """The shape of ``segment``."""
        points = {at for at, need in segment.needs if +need}
        if segment.exact is not None or segment.most:
            points.add(len(segment.slots))
        ends = tuple(sorted(points))
        exact = segment.exact or Counter()
        asked = {k for _, need in segment.needs for k, n in need.items() if n > 0}
        asked |= {k for k, n in exact.items() if n > 0} | set(segment.most)
        least: dict[Card, tuple[int, ...]] = {}
        for kind in sorted(asked):
            floor, row = 0, []
            for end in ends:
                floor = max([floor, *(need[kind] for at, need in segment.needs if at <= end)])
                if segment.exact is not None and end == len(segment.slots):
                    floor = max(floor, exact[kind])
                row.append(floor)
            least[kind] = tuple(row)
        most: dict[Card, int | None] = {}
        for kind in least:  # a closed segment holds its kinds exactly; a bound caps a kind
            bounds = [exact[kind]] if segment.exact is not None else []
            bounds += [segment.most[kind]] if kind in segment.most else []
            most[kind] = min(bounds, default=None)
        return cls(segment, ends, least, most)

    @property
    def sizes(self) -> tuple[int, ...]:
        """The number of slots in each stretch."""
        return tuple(b - a for a, b in zip((0, *self.ends[:-1]), self.ends, strict=True))


# What counting knows of one segment: the free slots left in each stretch, and how many cards of
# kinds it does not ask it took to place among them when it closes (so that where they lie does
# not multiply the states); once closed, nothing: ((), 0).
_Part = tuple[tuple[int, ...], int]
_Parts = tuple[_Part, ...]


class _Joint:
    """The total weight of every labelling of some segments' slots that fits what each player
    showed, the segments sharing one pool; and a draw of one labelling by that weight.

    A labelling weighs ``prod_k r_k (r_k - 1) ... (r_k - n_k + 1)`` over card kinds (``r_k``
    cards of kind ``k`` in the pool, ``n_k`` used): the ways to give its slots distinct
    physical cards. Counting goes kind by kind, each kind some segment asks placed in turn
    into the segments *open* then: by stretch into a segment that asks it, else as a number of
    its free slots. A segment opens with its first asked kind and closes with its last. The
    cards of any kind that it does not ask may fill its other slots: those of the kinds before
    it opens wait in a *heap* it takes from when it opens; every kind after it closes is one it
    does not ask, so all closed segments' free slots are alike to the kinds to come and are
    counted together, each kind taking some of them; the kinds no segment asks (alike, so
    counted as one) fill what is left at the end. So a counting state holds the free slots of
    the open segments only, and how many the closed ones have left; counting slot by slot would
    hold how many of every asked kind each prefix took, which multiplies with the kinds and
    stalled on records where several players keep Elves cards that are shown later.
    """

    def __init__(
        self,
        segments: Sequence[_Segment],
        pool: Counter[Card],
        *,
        ordered: bool = False,
        spent: int = 0,
    ) -> None:
        shapes = [_Shape.of(s) for s in segments]
        self.shapes = tuple(shapes) if ordered else _best_order(shapes)
        self.kinds = _kinds(self.shapes)
        self.pool = tuple(pool[k] for k in self.kinds)
        self.unasked = Counter({k: n for k, n in pool.items() if n > 0 and k not in self.kinds})
        order = {k: i for i, k in enumerate(self.kinds)}
        opens = [min(order[k] for k in s.least) for s in self.shapes]
        closes = [max(order[k] for k in s.least) for s in self.shapes]
        self.steps: list[_Step] = []
        for i in range(len(self.kinds)):
            self.steps += [_Step(i, j, True, ()) for j, e in enumerate(opens) if e == i]
            self.steps += [
                _Step(i, j, False, ())
                for j in range(len(self.shapes))
                if opens[j] <= i <= closes[j]
            ]
            if any(n < i for n in closes):
                self.steps.append(_Step(i, CLOSED, False, ()))
            self.steps[-1] = self.steps[-1]._replace(
                closing=tuple(j for j, n in enumerate(closes) if n == i)
            )
        self.later = [
            [
                sum(t.least.get(k, (0,))[-1] for t in self.shapes[j + 1 :])
                for j in range(len(self.shapes))
            ]
            for k in self.kinds
        ]
        self.owed = [
            [_owed(s, self.kinds[i:]) for i in range(len(self.kinds) + 1)] for s in self.shapes
        ]
        self.merged = [
            [_merged(s, self.kinds[i:]) for i in range(len(self.kinds) + 1)] for s in self.shapes
        ]
        self.memo: dict[tuple[int, _Key], int] = {}
        self.work = spent  # counting steps of the record so far, this count's included

    def start(self) -> _Key:
        """Every slot free, no card taken, the heap empty, no slot left to fill."""
        parts = tuple(
            (_merge(list(s.sizes), m[0]), 0) for s, m in zip(self.shapes, self.merged, strict=True)
        )
        return parts, 0, 0, 0

    def moves(self, step: int, key: _Key) -> Iterator[tuple[Move, int, _Key]]:
        """Each way the step may go, with its weight and the counting state after."""
        parts, used, heap, fill = key
        kind, j, opening, _ = self.steps[step]
        if j == CLOSED:  # into the slots closed segments have left
            left = self.pool[kind] - used
            for n in range(min(left, fill) + 1):
                yield n, comb(fill, n) * _falling(left, n), (parts, used + n, heap, fill - n)
            return
        free, taken = parts[j]
        shape = self.shapes[j]
        owed = self.owed[j][kind if opening else kind + 1]
        if opening:  # cards of the kinds before, from the heap
            for n in range(min(heap, sum(free) - owed[-1] - taken) + 1):
                ways, part = self._unasked(j, kind, free, taken, n)
                yield n, ways * _falling(heap, n), (_put(parts, j, part), used, heap - n, fill)
            return
        left = self.pool[kind] - used
        spare = left - self.later[kind][j]  # what the segments after this one leave
        if self.kinds[kind] in shape.least:
            least, most = shape.least[self.kinds[kind]], shape.most[self.kinds[kind]]
            spreads = _spreads(free, least, most, left)
            self.work += len(spreads)
            for spread, ways in spreads:
                n = sum(spread)
                after = _merge(
                    [f - c for f, c in zip(free, spread, strict=True)], self.merged[j][kind + 1]
                )
                if n <= spare and _room(after, owed, taken):
                    part = (after, taken)
                    yield (
                        spread,
                        ways * _falling(left, n),
                        (_put(parts, j, part), used + n, heap, fill),
                    )
            return
        for n in range(min(spare, sum(free) - owed[-1] - taken) + 1):
            ways, part = self._unasked(j, kind + 1, free, taken, n)
            yield n, ways * _falling(left, n), (_put(parts, j, part), used + n, heap, fill)

    def _unasked(
        self, j: int, pending: int, free: tuple[int, ...], taken: int, n: int
    ) -> tuple[int, _Part]:
        """``n`` cards of kinds segment ``j`` does not ask, while the kinds from ``pending``
        on are still to come: placed at once among its free slots where they are all in one
        stretch (no kind to come cares where they lie), else taken to be placed when the
        segment closes (so that which stretch they fall in does not multiply the states)."""
        if len(self.merged[j][pending]) + 1 == len(free):
            return comb(free[-1], n), ((*free[:-1], free[-1] - n), taken)
        return comb(taken + n, n), (free, taken + n)

    def close(self, step: int, key: _Key) -> tuple[int, _Key]:
        """After a kind's last step: the segments whose last asked kind it was close, the
        cards of other kinds they took placed among their free slots and the slots still free
        left to fill at the end (a closed segment's are all asked: none is left); the kind's
        cards left go to the heap."""
        kind, _, _, closing = self.steps[step]
        if step + 1 < len(self.steps) and self.steps[step + 1].kind == kind:
            return 1, key
        parts, used, heap, fill = key
        ways = 1
        for j in closing:
            free, taken = parts[j]
            room = sum(free)
            if taken > room or (self.shapes[j].segment.exact is not None and room > taken):
                return 0, key
            ways *= comb(room, taken)
            fill += room - taken
            parts = _put(parts, j, ((), 0))
        return ways, (parts, 0, heap + self.pool[kind] - used, fill)

    def weight(self, step: int, key: _Key) -> int:
        """The total weight of every way to go on from ``step``."""
        if step == len(self.steps):
            return _falling(self.unasked.total(), key[3])
        found = self.memo.get((step, key))
        if found is not None:
            return found
        total = 0
        for _, ways, after in self.moves(step, key):
            self.work += 1
            total += ways * self._then(step, after)
        if self.work > MAX_STEPS:
            raise RulesError(
                "CHANCE",
                said(
                    "the cards the other players drew unseen and showed later take more "
                    "than {MAX_STEPS} steps to count; this record is too tangled to "
                    "resample exactly",
                    MAX_STEPS=format(MAX_STEPS, ","),
                ),
            )
        self.memo[(step, key)] = total
        return total

    def _then(self, step: int, key: _Key) -> int:
        ways, key = self.close(step, key)
        return ways * self.weight(step + 1, key) if ways else 0

    def draw(self, rng: Random) -> dict[int, Card]:
        """Kinds for the segments' slots, drawn with their exact weights."""
        key = self.start()
        if self.weight(0, key) == 0:
            raise _defect("no cards the seat did not see fit what the other players showed")
        heap: Counter[Card] = Counter()
        loose: list[list[Card | None]] = [[] for _ in self.shapes]
        spreads: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in self.shapes]
        closed: list[tuple[int, int]] = []  # (segment, -1) as it closes, (kind, n) into closed
        for at, (i, j, opening, closing) in enumerate(self.steps):
            options = [(m, w * self._then(at, after), after) for m, w, after in self.moves(at, key)]
            move, _, key = options[_pick([w for _, w, _ in options], rng)]
            if j == CLOSED:
                assert isinstance(move, int)
                closed.append((i, move))
            elif isinstance(move, tuple):
                spreads[j].append((i, move))
            elif opening:
                for _ in range(move):
                    card = _draw(heap, rng)
                    heap[card] -= 1
                    loose[j].append(card)
            else:
                loose[j] += [self.kinds[i]] * move
            left = self.pool[i] - key[1]
            _, key = self.close(at, key)
            if at + 1 == len(self.steps) or self.steps[at + 1].kind != i:
                heap[self.kinds[i]] += left
                closed += [(done, -1) for done in closing]
        return self._place(spreads, loose, closed, rng)

    def _place(
        self,
        spreads: Sequence[Sequence[tuple[int, tuple[int, ...]]]],
        loose: Sequence[list[Card | None]],
        closed: Sequence[tuple[int, int]],
        rng: Random,
    ) -> dict[int, Card]:
        """The slots the moves drawn give: the copies of each asked kind at random places of
        their stretches, the other cards each open segment took shuffled over its free slots,
        then the cards of each kind that went into closed segments at random places among the
        slots left by those closed before it, and the rest from the kinds no segment asks."""
        labels: dict[int, Card] = {}
        left: list[list[int]] = []  # the slots each segment leaves when it closes
        for j, (shape, spread, cards) in enumerate(zip(self.shapes, spreads, loose, strict=True)):
            slots = shape.segment.slots
            stretches = [
                list(range(a, b)) for a, b in zip((0, *shape.ends[:-1]), shape.ends, strict=True)
            ]
            _merge_lists(stretches, self.merged[j][0])
            for i, counts in spread:
                for stretch, n in zip(stretches, counts, strict=True):
                    for at in _taken(stretch, n, rng):
                        labels[slots[at]] = self.kinds[i]
                _merge_lists(stretches, self.merged[j][i + 1])
            free = sorted(slots[at] for stretch in stretches for at in stretch)
            cards = cards + [None] * (len(free) - len(cards))
            cards = _taken(cards, len(cards), rng)  # shuffled
            left.append([slot for slot, card in zip(free, cards, strict=True) if card is None])
            labels.update((slot, c) for slot, c in zip(free, cards, strict=True) if c is not None)
        lump: list[int] = []
        for what, n in closed:
            if n < 0:
                lump += left[what]
                continue
            for slot in _taken(lump, n, rng):
                labels[slot] = self.kinds[what]
        unasked = Counter(self.unasked)
        for slot in lump:
            labels[slot] = card = _draw(unasked, rng)
            unasked[card] -= 1
        return labels


CLOSED = -1
"""The segment of a step into the slots closed segments have left."""


class _Step(NamedTuple):
    """One step of counting: kind ``kind`` (its place in the kinds' order) into segment
    ``segment``, or, ``opening``, the segment taking cards of the kinds before it from the
    heap; after the kind's last step, the segments ``closing`` close."""

    kind: int
    segment: int
    opening: bool
    closing: tuple[int, ...]


def _kinds(shapes: Sequence[_Shape]) -> tuple[Card, ...]:
    """The kinds the segments ask, those of the first segment first; among them, those asked
    before the segment's last point first, so that its stretches merge (and the cards of other
    kinds go straight to their slots) as soon as may be."""
    first: dict[Card, int] = {}
    for j, shape in enumerate(shapes):
        for kind in shape.least:
            first.setdefault(kind, j)

    def early(kind: Card) -> bool:
        least = shapes[first[kind]].least[kind]
        return any(n > (least[s - 1] if s else 0) for s, n in enumerate(least[:-1]))

    return tuple(sorted(first, key=lambda k: (first[k], not early(k), k)))


def _best_order(shapes: list[_Shape]) -> tuple[_Shape, ...]:
    """The order of the segments that should take the fewest counting states.

    A segment's free slots per stretch are part of the state from its first asked kind to its
    last; the cost of an order is guessed as the sum, over the kinds, of the product of the
    free-slot vectors the segments then counting may take. Orders of up to six segments are
    all tried (a few milliseconds); the real counts follow the guess closely.
    """
    if len(shapes) > 6:
        return tuple(sorted(shapes, key=lambda s: (len(s.least), s.ends)))
    return min(permutations(shapes), key=_guessed_cost)


def _guessed_cost(shapes: Sequence[_Shape]) -> int:
    kinds = {k: i for i, k in enumerate(_kinds(shapes))}
    spans = [(min(kinds[k] for k in s.least), max(kinds[k] for k in s.least)) for s in shapes]
    open_ = [prod(n + 1 for n in s.sizes) for s in shapes]
    done = [sum(s.sizes) + 1 for s in shapes]
    cost = 0
    for i in range(len(kinds)):
        term = 1
        for (entry, last), now, after in zip(spans, open_, done, strict=True):
            term *= now if entry <= i <= last else after if i > last else 1
        cost += term
    return cost


_Key = tuple[_Parts, int, int, int]
"""A counting state: the segments' parts, the copies of the step's kind used so far, the number
of cards in the heap, and the slots closed segments left to fill at the end."""


Move = tuple[int, ...] | int
"""A kind into a segment: its copies in each stretch (a kind the segment asks), or how many of
its free slots it takes."""


@lru_cache(maxsize=4096)
def _spreads(
    free: tuple[int, ...], least: tuple[int, ...], most: int | None, left: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each count of a kind per stretch that fits: at most the free slots of each stretch, so
    far at least ``least``, in all at most ``most`` and the ``left`` cards; with the ways to
    choose its slots."""
    top = left if most is None else min(left, most)

    def go(s: int, sofar: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if s == len(free):
            yield (), 1
            return
        for n in range(max(0, least[s] - sofar), min(free[s], top - sofar) + 1):
            for rest, ways in go(s + 1, sofar + n):
                yield (n, *rest), comb(free[s], n) * ways

    return tuple(go(0, 0))


def _owed(shape: _Shape, kinds: Sequence[Card]) -> tuple[int, ...]:
    """The least number of slots up to the end of each stretch that the asked ``kinds`` still
    take."""
    owed = [0] * len(shape.ends)
    for kind in kinds:
        for s, n in enumerate(shape.least.get(kind, ())):
            owed[s] += n
    return tuple(owed)


def _merged(shape: _Shape, kinds: Sequence[Card]) -> tuple[int, ...]:
    """The ends of stretches that none of the asked ``kinds`` still to come needs: there,
    at least as many of each are asked as at the end before, so where a slot lies on either
    side of it no longer matters. Such a stretch is merged into the next."""
    pending = [shape.least[k] for k in kinds if k in shape.least]
    return tuple(
        s
        for s in range(len(shape.ends) - 1)
        if all(least[s] == (least[s - 1] if s else 0) for least in pending)
    )


def _merge(free: list[int], merged: tuple[int, ...]) -> tuple[int, ...]:
    """``free`` with each stretch that ends in ``merged`` moved into the next."""
    for s in merged:
        free[s + 1] += free[s]
        free[s] = 0
    return tuple(free)


def _merge_lists(stretches: list[list[int]], merged: tuple[int, ...]) -> None:
    """The slots of each stretch that ends in ``merged`` moved into the next, as :func:`_merge`."""
    for s in merged:
        stretches[s + 1] += stretches[s]
        stretches[s] = []


def _room(free: tuple[int, ...], owed: tuple[int, ...], taken: int) -> bool:
    """Whether the kinds still to come fit the free slots of each stretch, and the cards of
    other kinds taken fit beside them."""
    room = 0
    for f, n in zip(free, owed, strict=True):
        room += f
        if room < n:
            return False
    return taken <= room - (owed[-1] if owed else 0)


def _put(parts: _Parts, j: int, part: _Part) -> _Parts:
    return (*parts[:j], part, *parts[j + 1 :])


def _falling(r: int, n: int) -> int:
    """``r (r - 1) ... (r - n + 1)``: the ways to give ``n`` slots distinct cards of ``r``."""
    return perm(r, n) if 0 <= n <= r else 0


def _pick(weights: Sequence[int], rng: Random) -> int:
    """An index drawn with probability proportional to its weight."""
    left = roll(rng, sum(weights))
    for k, w in enumerate(weights):
        left -= w
        if left < 0:
            return k
    raise _defect("the weights of a draw do not add up")  # unreachable: left < sum(weights)


def _draw(cards: Counter[Card], rng: Random) -> Card:
    """One card drawn uniformly from the multiset ``cards``."""
    left = roll(rng, cards.total())
    for card in sorted(cards):
        left -= max(cards[card], 0)
        if left < 0:
            return card
    raise _defect("no card to draw")  # unreachable: left < cards.total()


def _taken(items: list[T], n: int, rng: Random) -> list[T]:
    """``n`` of ``items`` drawn at random, in the order drawn, and taken out of ``items``."""
    return [items.pop(roll(rng, len(items))) for _ in range(n)]


@attrs.frozen
class _AgePlan:
    """How one Age's unseen cards are drawn, made once for a record: each closed segment on
    its own (what it holds is known, so it takes the same cards whatever the others do), then
    the open segments that show cards together, then every other slot from what is left. The
    counts are kept, so that drawing the same record again costs only the draw."""

    pool: Counter[Card]
    parts: tuple[_Joint, ...]
    slots: tuple[int, ...]

    @classmethod
    def of(cls, age: _Age, spent: int) -> _AgePlan:
        """The plan of ``age``, each part counted, after ``spent`` counting steps of the record
        (a CHANCE refusal past :data:`MAX_STEPS`)."""
        pool = Counter(age.pool)
        segments = [s for t in age.timelines.values() for s in _segments(t)]
        groups = [[s] for s in segments if s.exact is not None and s.slots]
        groups.append([s for s in segments if s.exact is None and s.constrained])
        parts = []
        for group in filter(None, groups):
            part = _Joint(group, pool, spent=spent)
            if part.weight(0, part.start()) == 0:
                raise _defect("no cards the seat did not see fit what the other players showed")
            spent = part.work
            parts.append(part)
            pool -= group[0].exact or Counter()
        return cls(Counter(age.pool), tuple(parts), tuple(i for s in segments for i in s.slots))

    @property
    def spent(self) -> int:
        """The counting steps of the record up to this Age's, included."""
        return self.parts[-1].work if self.parts else 0

    def draw(self, rng: Random) -> dict[int, Card]:
        """Kinds for every slot of the Age, from their exact posterior."""
        labels: dict[int, Card] = {}
        for part in self.parts:
            labels.update(part.draw(rng))
        pool = self.pool - Counter(labels.values())
        for index in self.slots:
            if index not in labels:
                labels[index] = card = _draw(pool, rng)
                pool[card] -= 1
        return labels


# --- the whole game -----------------------------------------------------------------------------


def resample_game(
    start: GameState, actions: Sequence[Action | str], seat: int, rng: Random
) -> Playthrough:
    """A whole game that fits ``actions``, a record kept at ``seat`` from ``start`` (where the
    other players hold no cards), drawn from the exact posterior. The replay and the counts
    of the last few records are kept, so that drawing again from one costs only the draw.

    Raises:
        RulesError: the record fits no game (the refusal :func:`seat_decisions` gives, with a
            note naming the decision); or (rule ``CHANCE``) the other players' unseen cards
            are tangled beyond :data:`MAX_STEPS` counting steps.
    """
    check_random(rng)
    planned = _plan(start, tuple(actions), seat)
    if isinstance(planned, RulesError):  # kept too, so that asking again costs nothing
        error = type(planned)(planned.rule, planned.reason, planned.action)
        for note in list(getattr(planned, "__notes__", ())):
            error.add_note(note)
        raise error
    items, plans = planned
    labels: dict[int, Card] = {}
    for plan in plans:
        labels.update(plan.draw(rng))
    return _complete(start, items, labels, seat)


@lru_cache(maxsize=8)
def _plan(
    start: GameState, actions: tuple[Action | str, ...], seat: int
) -> tuple[tuple[Action, ...], tuple[_AgePlan, ...]] | RulesError:
    """The record's items as actions (each ``rest`` in its place), and the plan of each Age;
    or why the record cannot be resampled."""
    try:
        return _planned(start, actions, seat)
    except RulesError as error:
        return error


def _planned(
    start: GameState, actions: tuple[Action | str, ...], seat: int
) -> tuple[tuple[Action, ...], tuple[_AgePlan, ...]]:
    played: list[Decision] = []
    for item in seat_decisions(start, actions, seat):
        if isinstance(item, Refusal):
            item.error.add_note(f"at decision {item.index}: {item.text!r}")
            raise item.error
        played.append(item)
    items = tuple(a if isinstance(a, Action) else parse_action(a) for a in actions)
    if [a for a in items if not isinstance(a, RestShown)] != [d.action for d in played]:
        raise _defect("the record's decisions are not those its replay played")
    plans: list[_AgePlan] = []
    for age in _ages(start, played, seat):
        plans.append(_AgePlan.of(age, plans[-1].spent if plans else 0))
    return items, tuple(plans)


def _complete(
    start: GameState, items: Sequence[Action], labels: dict[int, Card], seat: int
) -> Playthrough:
    """The record with each slot named, each ``keep ?`` fixed by the rest shown after it, and
    no ``rest``; checked to look as the record from ``seat``."""
    out: list[Action] = []
    seen: list[Action] = []
    state = start
    try:
        for index, action in enumerate(items):
            if isinstance(action, RestShown):
                continue
            if isinstance(action, Reveal) and action.hidden:
                action = Reveal(labels[index])
            elif isinstance(action, Keep) and action.hidden:
                action = _kept(state, items, index)
            result = step(state, action)
            out.append(action)
            seen += seen_items(action, result.events, seat)
            state = result.state
    except RulesError as error:
        raise _defect(f"the game drawn breaks a rule ({error})") from error
    if tuple(seen) != tuple(items):
        raise _defect("the game drawn does not look as the record from its seat")
    return Playthrough(start, tuple(out), state)


def _kept(state: GameState, actions: Sequence[Action], index: int) -> Keep:
    """The next card the Elves keep: the lowest of the hand that is neither kept yet nor in the
    rest that the record shows after the keeping."""
    pending = state.pending
    if not isinstance(pending, KeepPending):
        raise _defect("a 'keep ?' is drawn where no Elves keep")
    after = index
    while after < len(actions) and isinstance(actions[after], Keep):
        after += 1
    shown = actions[after] if after < len(actions) else None
    rest = Counter(shown.cards) if isinstance(shown, RestShown) else Counter()
    hand = Counter(state.players[pending.seat].hand) - Counter(pending.kept) - rest
    return Keep(min(hand))
