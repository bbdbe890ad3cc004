"""The speed floor: a minimal, mutable, unchecked random playout of the rules ``ethnos_rules``
referees, with the library's default options (issue 13).

It is what a random playout of the same game costs in plain Python when nothing is checked,
nothing is kept and nothing is immutable: cards are ints (the library's card order), hands are
sorted lists, the row is a list, the deck is a shuffled list with the Dragons shuffled into its
bottom part, bands are ``(leader, others)`` tuples from a dict cache. It imports nothing from the
library: ``benchmarks/crosscheck.py`` checks that it is the same game.

It offers the same legal action sets as the library at each decision (chance included: the
deal, each row card, each draw, the tribes, each kingdom's tokens, the first player) and counts
every decision the library counts, single-option ones too (a forced ``keep`` stop, a pass).
Subclasses replace the chance draws and the players' picks (:class:`Scripted`), which is how
the cross-check drives it decision by decision.

Left out on purpose: validation, records, events, Age summaries and the winner tie-breaks of
GAME-2/3 (no decision depends on them).
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

# --- components (COMP-*) ------------------------------------------------------------------------

TRIBES = ("CEN", "DWA", "ELF", "GIA", "HAL", "MER", "MIN", "ORC", "SKE", "TRO", "WIN", "WIZ")
CEN, DWA, ELF, GIA, HAL, MER, MIN, ORC, SKE, TRO, WIN, WIZ = range(12)
COLOURS = ("green", "purple", "orange", "gray", "red", "blue")  # colour i is kingdom i (COMP-1)

TRIBE_OF: list[int] = []  # card kind -> tribe
COLOUR_OF: list[int] = []  # card kind -> colour, -1 for the Skeleton
COPIES: list[int] = []  # card kind -> printed copies (COMP-2/3)
for _tribe in range(len(TRIBES)):
    for _colour in [-1] if _tribe == SKE else range(6):
        TRIBE_OF.append(_tribe)
        COLOUR_OF.append(_colour)
        COPIES.append(12 if _tribe == SKE else 4 if _tribe == HAL else 2)
SKELETON = TRIBE_OF.index(SKE)  # the one wild kind (card 48)

GLORY_TOKENS = (0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10)  # COMP-5
TOKENS_4PLUS = (0, 4, 4, 6, 6, 10)  # removed with 2-3 players (SETUP-4)
BAND_GLORY = (0, 1, 3, 6, 10, 15)  # COMP-7, by size after Skeletons leave
ORC_GLORY = (1, 3, 6, 10, 15, 20)  # COMP-11, by markers emptied
GIANT_GLORY = {False: (2, 4, 6), True: (2, 5)}  # COMP-9, by "small" (2-3 players)
MERFOLK_VALUES = {False: (1, 2, 4), True: (1, 3)}  # COMP-10
CHECKPOINTS = (3, 7, 12, 18)  # TRIBE-MER-2
LAST_SPACE = 18
TROLL_TOKENS = (1, 2, 3, 4, 5, 6)  # COMP-8
MARKERS = 26  # COMP-6, the score marker included
HAND_LIMIT = 10  # TURN-2
DRAGONS = 3  # COMP-4

# Options that are not cards or kingdoms (the library's Recruit(None), Pass, StopChain, Dragon).
DECK, PASS, STOP, DRAGON = -1, -2, -3, -4


class AgeOver(Exception):
    """The third Dragon was drawn (RECRUIT-4): the Age ends at once."""

    def __init__(self, drawer: int) -> None:
        self.drawer = drawer


# --- bands (BAND-1..4) ----------------------------------------------------------------------------

Band = tuple[int, tuple[int, ...]]  # (leader, the other cards sorted, Skeletons included)

_BAND_CACHE: dict[tuple[int, ...], list[Band]] = {}


def bands_of(hand: list[int]) -> list[Band]:
    """Every distinct band of the hand with each possible Leader kind (cached by hand)."""
    key = tuple(hand)
    found = _BAND_CACHE.get(key)
    if found is None:
        if len(_BAND_CACHE) > 50_000:  # bounded, like the library's cache
            _BAND_CACHE.clear()
        found = _BAND_CACHE[key] = enumerate_bands(hand)
    return found


def enumerate_bands(hand: Sequence[int]) -> list[Band]:
    """BAND-1/2: cards of one tribe, or of one colour; BAND-3/4: Skeletons are wild, never lead.
    A band of one kind counts once (as a same-tribe band)."""
    counts = Counter(c for c in hand if c != SKELETON)
    wild = hand.count(SKELETON)
    by_tribe: dict[int, list[int]] = {}
    by_colour: dict[int, list[int]] = {}
    for kind in sorted(counts):
        by_tribe.setdefault(TRIBE_OF[kind], []).append(kind)
        by_colour.setdefault(COLOUR_OF[kind], []).append(kind)
    out: list[Band] = []
    for kinds in by_tribe.values():
        _group(kinds, counts, wild, True, out)
    for kinds in by_colour.values():
        _group(kinds, counts, wild, False, out)
    return out


def _group(
    kinds: list[int], counts: Counter[int], wild: int, singles: bool, out: list[Band]
) -> None:
    """Every sub-multiset of one group's kinds (in card order), each with each Leader kind
    present and any number of Skeletons, which sort among the others at card 48."""
    subsets: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]  # (cards, kinds present)
    for kind in kinds:
        grown = []
        for cards, present in subsets:
            grown.append((cards, present))
            with_kind = (*present, kind)
            for m in range(1, counts[kind] + 1):
                grown.append((cards + (kind,) * m, with_kind))
        subsets = grown
    skeletons = [(SKELETON,) * n for n in range(wild + 1)]
    for cards, present in subsets:
        if not present or (len(present) == 1 and not singles):
            continue
        for leader in present:
            i = cards.index(leader)
            others = cards[:i] + cards[i + 1 :]
            if not wild:
                out.append((leader, others))
                continue
            cut = bisect_left(others, SKELETON)
            low, high = others[:cut], others[cut:]
            for bones in skeletons:
                out.append((leader, low + bones + high))


# --- the game -------------------------------------------------------------------------------------


class Game:
    """One game, played at random by :meth:`play` (``rng`` decides everything)."""

    def __init__(self, players: int, rng: random.Random) -> None:
        self.n = players
        self.rng = rng
        self.small = players <= 3  # SETUP-2/5: 2 Ages, 5 tribes, the small board sides
        self.ages = 2 if self.small else 3
        self.decisions = 0
        self.age = 1
        self.tribes: list[int] = []
        self.tokens: list[list[int]] = []  # per kingdom, lowest first
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.bands: list[list[Band]] = [[] for _ in range(players)]
        self.glory = [0] * players
        self.supply = [MARKERS - 1] * players
        self.kingdoms = [[0] * 6 for _ in range(players)]
        self.merfolk: list[int] | None = None
        self.horde: list[set[int]] = [set() for _ in range(players)]
        self.trolls: list[list[int]] = [[] for _ in range(players)]
        self.giant_holder: int | None = None
        self.giant_size = 0
        self.row: list[int] = []
        self.deck: list[int] = []
        self.first = 0
        self.last_dragon = 0
        self.dragons_drawn = 0

    # --- decisions: every call is one decision of the library; subclasses replace them ---------

    def pick(self, options: list[Any]) -> Any:
        """A player's decision, uniform among the legal options."""
        self.decisions += 1
        return self.rng.choice(options)

    def chance_tribe(self, left: list[int]) -> int:
        """SETUP-3: the next tribe, uniform over those not chosen."""
        self.decisions += 1
        return self.rng.choice(left)

    def chance_tokens(self, pool: list[int], k: int) -> list[int]:
        """SETUP-4: one kingdom's ``k`` tokens, drawn from the (shuffled) pool."""
        self.decisions += 1
        taken = pool[-k:]
        del pool[-k:]
        return taken

    def chance_first(self) -> int:
        """AGE-5: the first player of Age I, uniform."""
        self.decisions += 1
        return self.rng.randrange(self.n)

    def new_deck(self) -> None:
        """AGE-1: every Ally card of the tribes in play, shuffled."""
        self.deck = [
            c for c in range(len(TRIBE_OF)) if TRIBE_OF[c] in self.tribes for _ in range(COPIES[c])
        ]
        self.rng.shuffle(self.deck)

    def split(self) -> None:
        """AGE-4: the Dragons go into the bottom part; the top half (rounded down) holds none.
        The deck is drawn from its end, so the bottom part is the front of the list."""
        bottom = len(self.deck) - len(self.deck) // 2
        lower = self.deck[:bottom] + [DRAGON] * DRAGONS
        self.rng.shuffle(lower)
        self.deck[:bottom] = lower

    def draw(self) -> int:
        """The top card of the deck (a chance decision): an Ally kind or DRAGON."""
        self.decisions += 1
        return self.deck.pop()

    # --- the course of the game -----------------------------------------------------------------

    def play(self) -> int:
        """Play the whole game; the number of decisions."""
        self.setup()
        for age in range(1, self.ages + 1):
            self.age = age
            self.begin_age()
            try:
                seat = self.first
                while True:  # AGE-6: clockwise from the first player
                    self.turn(seat)
                    seat = (seat + 1) % self.n
            except AgeOver as over:
                self.end_age(over.drawer)
        return self.decisions

    def setup(self) -> None:
        left = list(range(len(TRIBES)))
        for _ in range(5 if self.small else 6):  # SETUP-3
            tribe = self.chance_tribe(left)
            left.remove(tribe)
            self.tribes.append(tribe)
        self.tribes.sort()
        if MER in self.tribes:  # SETUP-5: a marker from supply on space 0
            self.merfolk = [0] * self.n
            self.supply = [s - 1 for s in self.supply]
        pool = Counter(GLORY_TOKENS)
        if self.small:
            pool -= Counter(TOKENS_4PLUS)
        tokens = sorted(pool.elements())
        self.rng.shuffle(tokens)
        for _ in range(6):  # SETUP-4, kingdom by kingdom
            self.tokens.append(sorted(self.chance_tokens(tokens, 2 if self.small else 3)))

    def begin_age(self) -> None:
        if self.age == 1:
            self.first = self.chance_first()
        else:  # AGE-5: least Glory, ties clockwise from the drawer of the third Dragon
            order = [(self.last_dragon + i) % self.n for i in range(self.n)]
            self.first = min(order, key=lambda s: self.glory[s])
        self.new_deck()
        self.row = []
        self.dragons_drawn = 0
        for i in range(self.n):  # AGE-2: one card each from the first player
            self.hands[(self.first + i) % self.n].append(self.draw())
        for _ in range(2 * self.n):  # AGE-3
            self.row.append(self.draw())
        self.split()

    def draw_for(self, seat: int) -> int:
        """RECRUIT-3/4: a Dragon is set aside and the player draws again; the third ends the Age."""
        while True:
            card = self.draw()
            if card != DRAGON:
                return card
            self.dragons_drawn += 1
            if self.dragons_drawn == DRAGONS:
                raise AgeOver(seat)

    def turn(self, seat: int) -> None:
        """TURN-1..3: recruit from the row or the deck, play a band, or pass with a full hand."""
        hand = self.hands[seat]
        bands = bands_of(hand)
        options: list[Any]
        if len(hand) < HAND_LIMIT:
            options = list(set(self.row))
            options.append(DECK)
            options += bands
        else:
            options = bands or [PASS]
        choice = self.pick(options)
        if type(choice) is int:
            if choice == DECK:
                insort(hand, self.draw_for(seat))
            elif choice != PASS:  # RECRUIT-1/2: from the row, which is not refilled
                self.row.remove(choice)
                insort(hand, choice)
            return
        self.play_band(seat, choice)

    def play_band(self, seat: int, band: Band) -> None:
        """BAND-6: lay the band; placement, then the Leader's ability, then the rest of the hand."""
        leader, others = band
        hand = self.hands[seat]
        hand.remove(leader)
        for card in others:
            hand.remove(card)
        self.bands[seat].append(band)
        size = 1 + len(others)
        tribe = TRIBE_OF[leader]
        placed = self.place(seat, leader, tribe, size)
        if tribe == GIA:
            self.giants(seat, size)
        elif tribe == MER:
            self.merfolk_move(seat, size)
        elif tribe == ORC:
            self.orc_horde(seat, leader)
        elif tribe == TRO:
            self.troll_token(seat, size)
        elif tribe == CEN and placed:  # TRIBE-CEN-1/2: another band may follow, chains allowed
            more = bands_of(hand)
            if more:
                choice = self.pick([*more, STOP])
                if choice != STOP:
                    self.play_band(seat, choice)
                    return
        self.rest(seat, tribe, size)

    def place(self, seat: int, leader: int, tribe: int, size: int) -> bool:
        """BAND-5/5a: an optional marker where the (effective) size beats the markers counted."""
        if tribe == HAL or not self.supply[seat]:  # TRIBE-HAL-1; no marker left
            return False
        if tribe == MIN:  # TRIBE-MIN-1
            size += 1
        kingdoms = range(6) if tribe == WIN else (COLOUR_OF[leader],)  # TRIBE-WIN-1
        if self.n == 2:  # BAND-5: both players' markers count in a 2-player game
            mine, theirs = self.kingdoms
            options: list[int | None] = [k for k in kingdoms if size > mine[k] + theirs[k]]
        else:
            mine = self.kingdoms[seat]
            options = [k for k in kingdoms if size > mine[k]]
        if not options:
            return False
        options.append(None)
        kingdom = self.pick(options)
        if kingdom is None:
            return False
        self.kingdoms[seat][kingdom] += 1
        self.supply[seat] -= 1
        return True

    def giants(self, seat: int, size: int) -> None:
        """TRIBE-GIA-1: larger than every Giant-led band this Age: 2 Glory and the token."""
        if size > self.giant_size:
            self.glory[seat] += 2
            self.giant_holder, self.giant_size = seat, size

    def merfolk_move(self, seat: int, size: int) -> None:
        """TRIBE-MER-1/2: move X spaces; a marker anywhere (or none) per checkpoint reached."""
        assert self.merfolk is not None
        start = self.merfolk[seat]
        end = self.merfolk[seat] = min(start + size, LAST_SPACE)
        for _ in range(sum(1 for c in CHECKPOINTS if start < c <= end)):
            if not self.supply[seat]:
                return
            kingdom = self.pick([0, 1, 2, 3, 4, 5, None])
            if kingdom is not None:
                self.kingdoms[seat][kingdom] += 1
                self.supply[seat] -= 1

    def orc_horde(self, seat: int, leader: int) -> None:
        """TRIBE-ORC-1: a marker on the empty Horde space of the Leader's colour, or not."""
        colour = COLOUR_OF[leader]
        if self.supply[seat] and colour not in self.horde[seat] and self.pick([True, False]):
            self.horde[seat].add(colour)
            self.supply[seat] -= 1

    def troll_token(self, seat: int, size: int) -> None:
        """TRIBE-TRO-1: an unclaimed Troll token of value <= X, or none."""
        held = [v for t in self.trolls for v in t]
        values = [v for v in TROLL_TOKENS if v <= size and v not in held]
        if values:
            value = self.pick([*values, None])
            if value is not None:
                self.trolls[seat].append(value)

    def rest(self, seat: int, tribe: int, size: int) -> None:
        """BAND-6: the rest of the hand goes into the row, but for Elves and Wizards."""
        hand = self.hands[seat]
        if tribe == ELF:
            if hand:
                self.elves_keep(seat, size)
        elif tribe == WIZ:  # TRIBE-WIZ-1: discard, then draw X cards or none
            self.row += hand
            hand.clear()
            for _ in range(self.pick([size, 0])):
                insort(hand, self.draw_for(seat))
        else:
            self.row += hand
            hand.clear()

    def elves_keep(self, seat: int, size: int) -> None:
        """TRIBE-ELF-1 (up_to_x): keep up to X cards, one decision each, named in card order,
        then a stop (offered alone once X or the whole rest is kept)."""
        hand = self.hands[seat]
        target = min(size, len(hand))
        rest = list(hand)
        kept: list[int] = []
        while True:
            if len(kept) < target:
                floor = kept[-1] if kept else -1
                options: list[int | None] = [*sorted({c for c in rest if c >= floor}), None]
            else:
                options = [None]
            card = self.pick(options)
            if card is None:
                break
            kept.append(card)
            rest.remove(card)
        self.row += rest
        hand[:] = kept

    # --- the end of an Age (END-1..6) -------------------------------------------------------------

    def end_age(self, drawer: int) -> None:
        for hand in self.hands:  # END-1
            hand.clear()
        for kingdom in range(6):  # END-2
            self.score_area([p[kingdom] for p in self.kingdoms], self.tokens[kingdom])
        if self.merfolk is not None:  # END-3, TRIBE-MER-3: like a kingdom
            self.score_area(self.merfolk, MERFOLK_VALUES[self.small])
        if self.giant_holder is not None:  # END-3, TRIBE-GIA-1
            self.glory[self.giant_holder] += GIANT_GLORY[self.small][self.age - 1]
        last = self.age == self.ages
        for i in range(self.n):  # END-3, TRIBE-ORC-2: from the player after the drawer
            seat = (drawer + 1 + i) % self.n
            horde = self.horde[seat]
            if horde and (last or self.pick([tuple(sorted(horde)), ()])):
                self.glory[seat] += ORC_GLORY[len(horde) - 1]
                self.supply[seat] += len(horde)
                horde.clear()
        for seat, bands in enumerate(self.bands):  # END-4, TRIBE-SKE-1, TRIBE-DWA-1
            for leader, others in bands:
                size = 1 + len(others) - others.count(SKELETON) + (TRIBE_OF[leader] == DWA)
                self.glory[seat] += BAND_GLORY[min(size, 6) - 1]
            bands.clear()
        for trolls in self.trolls:  # END-5
            trolls.clear()
        self.giant_holder, self.giant_size = None, 0
        self.last_dragon = drawer

    def score_area(self, values: Sequence[int], tokens: Sequence[int]) -> None:
        """SCORE-K-1..3 (and SCORE-2P-1 in a 2-player game's last Age): rank the players with
        a value above 0, ties broken by Troll tokens (total, then highest); a tie group shares
        the awards of the ranks it covers, rounded down."""
        trolls = self.trolls
        contenders = [s for s in range(self.n) if values[s] > 0]
        if not contenders:
            return
        key = {s: (values[s], sum(trolls[s]), max(trolls[s], default=0)) for s in contenders}
        contenders.sort(key=lambda s: key[s], reverse=True)
        groups: list[list[int]] = []
        for seat in contenders:
            if groups and key[groups[-1][0]] == key[seat]:
                groups[-1].append(seat)
            else:
                groups.append([seat])
        if self.n == 2 and self.age == self.ages:  # SCORE-2P-1
            if len(groups[0]) == 2:
                self.glory[0] += tokens[1] // 2
                self.glory[1] += tokens[1] // 2
            elif len(groups) == 1:
                self.glory[groups[0][0]] += tokens[0] + tokens[1]
            else:
                self.glory[groups[0][0]] += tokens[1]
            return
        rank = 1
        for group in groups:  # SCORE-K-2: in Age A the r-th player earns space A - r + 1
            total = sum(
                tokens[self.age - r]
                for r in range(rank, rank + len(group))
                if 1 <= self.age - r + 1 <= len(tokens)
            )
            for seat in group:
                self.glory[seat] += total // len(group)
            rank += len(group)


def play(players: int, rng: random.Random) -> int:
    """One random game; its number of decisions."""
    return Game(players, rng).play()


# --- driven from outside: the cross-check and the floor's perft ---------------------------------


class Scripted(Game):
    """The same game, with every decision (chance included) chosen by :meth:`decide` from the
    full list of distinct options, as the library lists them; the deck is a multiset of kinds,
    split into a top part of ``top_left`` cards and a bottom part holding the Dragons."""

    def __init__(self, players: int) -> None:
        super().__init__(players, random.Random(0))
        self.top_left = 0
        self.dragons_in_deck = 0

    def decide(self, options: list[Any]) -> Any:
        """Choose one of ``options`` (the library's legal set, as floor values)."""
        raise NotImplementedError

    def pick(self, options: list[Any]) -> Any:
        self.decisions += 1
        return self.decide(options)

    def chance_tribe(self, left: list[int]) -> int:
        self.decisions += 1
        return int(self.decide(list(left)))

    def chance_tokens(self, pool: list[int], k: int) -> list[int]:
        self.decisions += 1
        have = Counter(pool)
        combos = combinations_with_replacement(sorted(have), k)
        taken = list(self.decide([c for c in combos if not Counter(c) - have]))
        for value in taken:
            pool.remove(value)
        return taken

    def chance_first(self) -> int:
        self.decisions += 1
        return int(self.decide(list(range(self.n))))

    def new_deck(self) -> None:
        self.deck = [
            c for c in range(len(TRIBE_OF)) if TRIBE_OF[c] in self.tribes for _ in range(COPIES[c])
        ]
        self.top_left = self.dragons_in_deck = 0

    def split(self) -> None:
        self.top_left = len(self.deck) // 2
        self.dragons_in_deck = DRAGONS

    def draw(self) -> int:
        self.decisions += 1
        options: list[int] = sorted(set(self.deck))
        if self.dragons_in_deck and not self.top_left:
            options.append(DRAGON)
        card = self.decide(options)
        self.top_left = max(self.top_left - 1, 0)
        if card == DRAGON:
            self.dragons_in_deck -= 1
        else:
            self.deck.remove(card)
        return int(card)
