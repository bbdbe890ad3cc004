"""The rules of ``docs/reference/rules-1e.md`` written out again for the exhaustive search.

Every function here reads a state's fields and the edition's printed numbers (a declaration's
data: copies, hand limit, Dragons, tables) and says what the rules text makes of them: every
decision a player may take, found by brute force (every sub-multiset of a hand as a band, each
of its Allies as Leader, every kingdom for a marker); every chance outcome with its exact
probability; what comes after a decision and the Glory it pays. None of it calls the referee's
rules: the search compares the two on every state and every transition.

The tribes' abilities are read from the rules text by tribe code (``TRIBE-*``); a small edition
declares its tribes with the first edition's codes, so the same text applies.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ethnos_rules import (
    DRAGON,
    Action,
    AddToHorde,
    Card,
    Checkpoint,
    ChooseFirstPlayer,
    ChooseTribe,
    Colour,
    DecisionKind,
    EmptyHorde,
    GameState,
    Keep,
    Kingdom,
    LayTokens,
    Pass,
    Place,
    PlayBand,
    Recruit,
    Reveal,
    StopChain,
    TakeTroll,
    WizardDraw,
    pending_decision,
)

# --- what the rules text says of each tribe (§7) -------------------------------------------------

PLACEMENT_BONUS = {"MIN": 1}
"""TRIBE-MIN-1: effective size X + 1 for placement."""
ANY_KINGDOM = frozenset({"WIN"})
"""TRIBE-WIN-1: the marker may go to any kingdom passing the size test."""
NEVER_PLACES = frozenset({"HAL"})
"""TRIBE-HAL-1: a Halfling-led band places no marker."""
BAND_BONUS = {"DWA": 1}
"""TRIBE-DWA-1: one card larger at band scoring."""
GIANT_GLORY = 2
"""TRIBE-GIA-1: Glory for the strictly largest Giant-led band so far."""

Gains = tuple[int, ...]
"""Glory gained, by seat."""


# --- bands (BAND-1..4) ----------------------------------------------------------------------------


def wild(card: Card) -> bool:
    """A Skeleton (the edition's wild tribe): any band, never a Leader (BAND-3, TRIBE-SKE-1)."""
    return card.tribe.wild


def band_is_valid(cards: Sequence[Card], leader: Card, hand_limit: int) -> bool:
    """BAND-1..4: 1 to ``hand_limit`` cards, a non-Skeleton Leader, and every non-Skeleton card
    of one tribe or of one colour."""
    allies = [c for c in cards if not wild(c)]
    if not 1 <= len(cards) <= hand_limit or wild(leader) or leader not in cards:
        return False
    return len({c.tribe for c in allies}) == 1 or len({c.colour for c in allies}) == 1


def every_band(hand: Sequence[Card], hand_limit: int) -> set[Action]:
    """Every band the hand can play: each sub-multiset of the hand, with each of its
    non-Skeleton kinds as Leader, kept when BAND-1..4 hold."""
    counts = Counter(hand)
    kinds = list(counts)
    out: set[Action] = set()
    for picks in itertools.product(*(range(counts[k] + 1) for k in kinds)):
        cards = [k for k, m in zip(kinds, picks, strict=True) for _ in range(m)]
        for leader in set(cards):
            if band_is_valid(cards, leader, hand_limit):
                rest = list(cards)
                rest.remove(leader)
                out.add(PlayBand.of(leader, *rest))
    return out


def without(cards: Sequence[Card], taken: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` less one copy of each of ``taken`` (which it holds)."""
    left = list(cards)
    for card in taken:
        left.remove(card)
    return tuple(left)


# --- placement (BAND-5) ---------------------------------------------------------------------------


def kingdom_of(colour: Colour | None) -> Kingdom:
    """COMP-1: a card's colour names its kingdom."""
    assert colour is not None
    return colour.kingdom


def placement_kingdoms(state: GameState, seat: int, leader: Card, size: int) -> set[Kingdom]:
    """BAND-5: the kingdoms where the band may place: the Leader's (any with Wingfolk), none
    with Halflings or an empty supply, where X (+1 with Minotaurs) beats the player's markers
    (both players' with 2 players)."""
    code = leader.tribe.code
    if code in NEVER_PLACES or state.players[seat].supply == 0:
        return set()
    kingdoms = state.rules.kingdoms if code in ANY_KINGDOM else (kingdom_of(leader.colour),)
    effective = size + PLACEMENT_BONUS.get(code, 0)
    counted = range(2) if state.config.players == 2 else (seat,)
    return {k for k in kingdoms if effective > sum(state.players[s].kingdoms[k] for s in counted)}


# --- every decision, by brute force ---------------------------------------------------------------


def choices(state: GameState) -> dict[Action, Fraction | None]:
    """Every legal decision in ``state``, each with its probability at a chance event (None
    where a player decides), from the rules text."""
    decision = pending_decision(state)
    kind, facts = decision.kind, decision.facts
    if kind in _CHANCE:
        return dict(_CHANCE[kind](state))
    seat = decision.seat
    assert seat is not None or kind is DecisionKind.GAME_OVER
    return dict.fromkeys(_PLAYER[kind](state, seat or 0, facts))


def _tribes(state: GameState) -> list[tuple[Action, Fraction]]:
    """SETUP-3: uniform over the tribes not yet chosen."""
    left = [t for t in state.rules.tribes if t not in state.tribes]
    return [(ChooseTribe(t), Fraction(1, len(left))) for t in left]


def token_pool(state: GameState) -> Counter[int]:
    """SETUP-4: the tokens still to lay: the options' tokens, less the 4+ ones with 2–3
    players, less those laid."""
    options = state.options
    pool = Counter(options.glory_tokens)
    if state.config.players <= 3:
        pool -= Counter(options.glory_tokens_4plus)
    pool -= Counter(v for row in state.tokens for v in row)
    return pool


def _tokens(state: GameState) -> list[tuple[Action, Fraction]]:
    """SETUP-4: the next kingdom (in board order) gets a uniform draw of its tokens from the
    pool, sorted: a multiset M of k tokens has probability prod C(pool_v, m_v) / C(|pool|, k)."""
    pool = token_pool(state)
    k = state.config.token_spaces
    kingdom = state.rules.kingdoms[len(state.tokens)]
    total = math.comb(pool.total(), k)
    out: list[tuple[Action, Fraction]] = []
    for values in sorted(set(itertools.combinations(sorted(pool.elements()), k))):
        ways = math.prod(math.comb(pool[v], m) for v, m in Counter(values).items())
        out.append((LayTokens(kingdom, values), Fraction(ways, total)))
    return out


def _first_player(state: GameState) -> list[tuple[Action, Fraction]]:
    """AGE-5: uniform over the seats."""
    n = state.config.players
    return [(ChooseFirstPlayer(seat), Fraction(1, n)) for seat in range(n)]


def _draw(state: GameState) -> list[tuple[Action, Fraction]]:
    """CHANCE: ``c_k / A`` in the top part; in the bottom part ``c_k / b`` and ``d / b``."""
    counts = {card: n for card, n in zip(state.rules.cards, state.deck, strict=True) if n}
    dragons = state.dragons_in_deck if state.top_left == 0 else 0
    total = sum(counts.values()) + dragons
    out: list[tuple[Action, Fraction]] = [
        (Reveal(card), Fraction(n, total)) for card, n in counts.items()
    ]
    if dragons:
        out.append((Reveal(DRAGON), Fraction(dragons, total)))
    return out


_CHANCE = {
    DecisionKind.TRIBE_CHOICE: _tribes,
    DecisionKind.TOKEN_LAYOUT: _tokens,
    DecisionKind.FIRST_PLAYER: _first_player,
    DecisionKind.DEAL: _draw,
    DecisionKind.ROW: _draw,
    DecisionKind.DECK_DRAW: _draw,
    DecisionKind.WIZARD_DRAW: _draw,
}


def _turn(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TURN-1..3, RECRUIT-1: a band of the hand; below the hand limit a recruit of any row card
    or the deck; with a full hand and no band, a pass."""
    hand = state.players[seat].hand
    bands = every_band(hand, state.rules.hand_limit)
    if len(hand) < state.rules.hand_limit:
        return bands | {Recruit(c) for c in state.row} | {Recruit(None)}
    return bands or {Pass()}


def _chain(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TRIBE-CEN-1: another band of the remaining hand, or stop."""
    return every_band(state.players[seat].hand, state.rules.hand_limit) | {StopChain()}


def _place(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """BAND-5, BAND-5a: a marker in each kingdom that passes, or none when placing is optional."""
    band = facts["band"]
    kingdoms = placement_kingdoms(state, seat, band.leader, band.size)
    optional = {Place(None)} if state.options.placement == "optional" else set()
    return {Place(k) for k in kingdoms} | optional


def _checkpoint(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TRIBE-MER-2: a marker in any kingdom, or none."""
    return {Checkpoint(k) for k in state.rules.kingdoms} | {Checkpoint(None)}


def _horde(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TRIBE-ORC-1: add the marker or not."""
    return {AddToHorde(True), AddToHorde(False)}


def unclaimed_trolls(state: GameState) -> Counter[int]:
    """TRIBE-TRO-1: the Troll tokens nobody holds."""
    held = Counter(v for p in state.players for v in p.trolls)
    return Counter(state.rules.troll_tokens) - held


def _troll(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TRIBE-TRO-1: one unclaimed token of value at most X, or none."""
    size = facts["band"].size
    return {TakeTroll(v) for v in unclaimed_trolls(state) if v <= size} | {TakeTroll(None)}


def _keep(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TRIBE-ELF-1: the Elves keep cards of the rest of the hand one by one, named in card order
    so that each kept set is kept one way. ``up_to_x``: one more card while fewer than
    ``min(X, hand)`` are kept, or stop. ``exactly_x``: keep that many or none, so a card is
    offered only when enough cards from it on remain, and stopping only with none or all kept."""
    kept: tuple[Card, ...] = facts["kept"]
    hand = state.players[seat].hand
    target = min(facts["band"].size, len(hand))
    floor = kept[-1].index if kept else -1
    later = sorted((c for c in without(hand, kept) if c.index >= floor), key=lambda c: c.index)
    if len(kept) >= target:
        later = []
    if state.options.elves_keep == "up_to_x":
        return {Keep(c) for c in later} | {Keep(None)}
    need = target - len(kept)
    out: set[Action] = {Keep(c) for i, c in enumerate(later) if len(later) - i >= need}
    if len(kept) in (0, target):
        out.add(Keep(None))
    return out


def _wizard(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TRIBE-WIZ-1: draw X cards or none (``up_to_x``: any number up to X)."""
    size = facts["band"].size
    if state.options.wizard_draw == "up_to_x":
        return {WizardDraw(n) for n in range(size + 1)}
    return {WizardDraw(size), WizardDraw(0)}


def _empty(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """TRIBE-ORC-2: empty the whole Horde or keep it (``any_subset``: empty any part of it)."""
    horde = state.players[seat].horde
    if state.options.orc_empty == "all_or_nothing":
        return {EmptyHorde(horde), EmptyHorde(())}
    parts = itertools.chain.from_iterable(
        itertools.combinations(horde, k) for k in range(len(horde) + 1)
    )
    return {EmptyHorde(part) for part in parts}


def _over(state: GameState, seat: int, facts: Mapping[str, Any]) -> set[Action]:
    """GAME-1: nothing once the last Age is scored."""
    return set()


_PLAYER = {
    DecisionKind.TURN: _turn,
    DecisionKind.CENTAUR_CHAIN: _chain,
    DecisionKind.PLACEMENT: _place,
    DecisionKind.MERFOLK_CHECKPOINT: _checkpoint,
    DecisionKind.ORC_HORDE: _horde,
    DecisionKind.TROLL_TOKEN: _troll,
    DecisionKind.ELF_KEEP: _keep,
    DecisionKind.WIZARD_COUNT: _wizard,
    DecisionKind.HORDE_EMPTY: _empty,
    DecisionKind.GAME_OVER: _over,
}


# --- scoring (§8–10) ------------------------------------------------------------------------------


def rank_groups(
    values: Sequence[int], trolls: Sequence[Sequence[int]], first_only: bool
) -> list[list[int]]:
    """SCORE-K-1/3: the contenders (a value above 0) in tie groups, best first: by value, then
    Troll total, then highest Troll (among the players tied for the most only, with
    ``troll_tiebreak=first_only``)."""
    contenders = [seat for seat, v in enumerate(values) if v > 0]
    if not contenders:
        return []
    best = max(values)

    def key(seat: int) -> tuple[int, int, int]:
        if first_only and values[seat] != best:
            return (values[seat], 0, 0)
        return (values[seat], sum(trolls[seat]), max(trolls[seat], default=0))

    groups: dict[tuple[int, int, int], list[int]] = {}
    for seat in contenders:
        groups.setdefault(key(seat), []).append(seat)
    return [groups[k] for k in sorted(groups, reverse=True)]


def area_awards(
    state: GameState, values: Sequence[int], tokens: Sequence[int], first_only: bool = False
) -> list[int]:
    """SCORE-K-2/3 and SCORE-2P-1 for one kingdom (or the Merfolk board): in Age a the r-th
    earns space a - r + 1; a tie group shares the awards of the ranks it covers, rounded down;
    with 2 players the last Age pays II to the first, I + II to a lone contender, II // 2 each
    to a tie. ``first_only``: ``merfolk_scoring=first_only``."""
    n = state.config.players
    age = state.age
    options = state.options
    groups = rank_groups(
        values, [p.trolls for p in state.players], options.troll_tiebreak == "first_only"
    )
    out = [0] * n
    if n == 2 and age == state.config.ages:
        if not groups:
            return out
        if len(groups[0]) == 2:
            split_two = options.two_player_final_tie == "split_II"
            pot = tokens[1] if split_two else tokens[0] + tokens[1]
            return [pot // 2, pot // 2]
        out[groups[0][0]] = tokens[0] + tokens[1] if len(groups) == 1 else tokens[1]
        return out

    def prize(rank: int) -> int:
        space = age - rank + 1
        return tokens[space - 1] if 1 <= space <= len(tokens) else 0

    rank = 1
    for group in groups[:1] if first_only else groups:
        covered = range(rank, rank + (1 if first_only else len(group)))
        for seat in group:
            out[seat] = sum(prize(r) for r in covered) // len(group)
        rank += len(group)
    return out


def band_glory(state: GameState, size: int) -> int:
    """COMP-7 on a band's size after Skeletons leave it (Dwarf bonus included)."""
    table = state.rules.band_glory
    return 0 if size <= 0 else table[min(size, len(table)) - 1]


def end_of_age_gains(state: GameState) -> dict[str, list[int]]:
    """END-2, END-3 (Merfolk, Giant) and END-4 from the state before the last Dragon, by
    source and seat (the Orcs' Hordes come from their decisions)."""
    n = state.config.players
    gains = {src: [0] * n for src in ("kingdoms", "merfolk", "giant", "bands")}
    for kingdom, tokens in zip(state.rules.kingdoms, state.tokens, strict=True):
        markers = [p.kingdoms[kingdom] for p in state.players]
        for seat, g in enumerate(area_awards(state, markers, tokens)):
            gains["kingdoms"][seat] += g
    if state.players[0].merfolk is not None:
        board = state.options.merfolk_board
        values = board.values_small if n <= 3 else board.values_large
        positions = [p.merfolk or 0 for p in state.players]
        first_only = state.options.merfolk_scoring == "first_only"
        gains["merfolk"] = area_awards(state, positions, values, first_only)
    if state.giant_holder is not None:
        side = state.rules.giant_values[1 if n <= 3 else 0]
        gains["giant"][state.giant_holder] = side[state.age - 1]
    gains["bands"] = bands_gains(state)
    return gains


def bands_gains(state: GameState) -> list[int]:
    """END-4: Skeletons leave every band, which then scores COMP-7 (+1 with a Dwarf Leader)."""
    out = []
    for player in state.players:
        total = 0
        for band in player.bands:
            kept = sum(1 for c in band.cards if not wild(c))
            total += band_glory(state, kept + BAND_BONUS.get(band.leader.tribe.code, 0))
        out.append(total)
    return out


def orc_glory(state: GameState, emptied: int) -> int:
    """COMP-11: Glory for the markers removed from a Horde."""
    return state.rules.orc_glory[emptied - 1] if emptied else 0


def least_glory_seat(glory: Sequence[int], drawer: int) -> int:
    """AGE-5: least Glory; a tie goes to the first tied seat clockwise from the player who drew
    the last Dragon (included)."""
    n = len(glory)
    order = [(drawer + i) % n for i in range(n)]
    return min(order, key=lambda s: glory[s])


def winners(
    glory: Sequence[int], markers: Sequence[int], sizes: Sequence[Sequence[int]]
) -> tuple[int, ...]:
    """GAME-1..3: most Glory, then most markers on the kingdoms, then the last Age's bands
    largest first (more bands winning when all compared sizes are equal); else shared."""
    keys = [
        (g, m, tuple(sorted(s, reverse=True)))
        for g, m, s in zip(glory, markers, sizes, strict=True)
    ]
    best = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)


# --- what comes next ------------------------------------------------------------------------------


@dataclass
class Next:
    """What the rules text says follows a decision: the kind and seat of the next decision (or
    the seat it is about, at a chance event), its facts that matter, and the Glory paid."""

    kind: DecisionKind
    seat: int | None
    gains: list[int]
    facts: dict[str, Any] = field(default_factory=dict)
    winners: tuple[int, ...] | None = None
    age_scored: dict[str, list[int]] | None = None


def next_decision(before: GameState, action: Action) -> Next:
    """What follows ``action`` in ``before``, by the rules text."""
    decision = pending_decision(before)
    kind = decision.kind
    n = before.config.players
    gains = [0] * n
    seat = decision.seat
    facts = dict(decision.facts)
    if kind is DecisionKind.TRIBE_CHOICE:
        if len(before.tribes) + 1 < before.config.tribe_count:
            return Next(DecisionKind.TRIBE_CHOICE, None, gains)
        return _after_tribes(before, gains)
    if kind is DecisionKind.TOKEN_LAYOUT:
        laid = len(before.tokens) + 1
        if laid < len(before.rules.kingdoms):
            kingdom = before.rules.kingdoms[laid]
            return Next(DecisionKind.TOKEN_LAYOUT, None, gains, {"kingdom": kingdom})
        return _age_begins(before, gains)
    if kind is DecisionKind.FIRST_PLAYER:
        assert isinstance(action, ChooseFirstPlayer)
        return _deal(action.seat, 1, gains)
    if kind is DecisionKind.DEAL:
        if facts["card_number"] < n:
            receiver = (facts["receiver"] + 1) % n
            return _deal(receiver, facts["card_number"] + 1, gains)
        return Next(DecisionKind.ROW, None, gains, {"left": 2 * n})  # AGE-3
    if kind is DecisionKind.ROW:
        if facts["left"] > 1:
            return Next(DecisionKind.ROW, None, gains, {"left": facts["left"] - 1})
        assert before.first_player is not None
        return Next(DecisionKind.TURN, before.first_player, gains)  # AGE-4, AGE-6
    if kind in (DecisionKind.DECK_DRAW, DecisionKind.WIZARD_DRAW):
        return _after_draw(before, action, facts, gains)
    if kind is DecisionKind.HORDE_EMPTY:
        assert seat is not None and isinstance(action, EmptyHorde)
        gains[seat] += orc_glory(before, len(action.colours))
        after: tuple[int, ...] = facts["after"]
        if after:
            return Next(DecisionKind.HORDE_EMPTY, after[0], gains)
        return _finish_age(before, gains, facts["third_dragon"])
    assert seat is not None
    return _band_flow(before, seat, kind, action, facts, gains)


def _after_tribes(before: GameState, gains: list[int]) -> Next:
    """SETUP-3 done: the tokens are laid (SETUP-4), unless the setup gave them."""
    if len(before.tokens) == len(before.rules.kingdoms):
        return _age_begins(before, gains)
    return Next(DecisionKind.TOKEN_LAYOUT, None, gains, {"kingdom": before.rules.kingdoms[0]})


def _age_begins(before: GameState, gains: list[int]) -> Next:
    """Age I begins: the first player (AGE-5), then the deal (AGE-2)."""
    if before.first_player is None:
        return Next(DecisionKind.FIRST_PLAYER, None, gains)
    return _deal(before.first_player, 1, gains)


def _deal(receiver: int, number: int, gains: list[int]) -> Next:
    """AGE-2: one card each, in seat order from the first player."""
    return Next(DecisionKind.DEAL, None, gains, {"receiver": receiver, "card_number": number})


def _after_draw(before: GameState, action: Action, facts: dict[str, Any], gains: list[int]) -> Next:
    """RECRUIT-3/4, TRIBE-WIZ-1: a card goes to the drawer; a Dragon is set aside and the
    drawer draws again; the last Dragon ends the Age at once."""
    drawer: int = facts["drawer"]
    kind = pending_decision(before).kind
    assert isinstance(action, Reveal)
    if action.card is DRAGON:
        if before.dragons_drawn + 1 < before.rules.dragons:  # RECRUIT-3: draw again
            return Next(kind, None, gains, facts)
        return _age_ends(before, drawer, gains)
    left = facts.get("left", 1)
    if kind is DecisionKind.WIZARD_DRAW and left > 1:
        return Next(kind, None, gains, {"drawer": drawer, "left": left - 1})
    return _turn_of(before, drawer, gains)


def _turn_of(before: GameState, seat: int, gains: list[int]) -> Next:
    """AGE-6: the next player clockwise takes a turn."""
    return Next(DecisionKind.TURN, (seat + 1) % before.config.players, gains)


def _age_ends(before: GameState, drawer: int, gains: list[int]) -> Next:
    """END-1..3: hands scattered; kingdoms, the Merfolk board and the Giant token scored; then
    the Orc players decide in turn order from the player after the drawer, or (last Age) every
    Horde is emptied; then END-4 and the next Age."""
    n = before.config.players
    scored = end_of_age_gains(before)
    for source in ("kingdoms", "merfolk", "giant"):
        for seat in range(n):
            gains[seat] += scored[source][seat]
    order = [(drawer + 1 + i) % n for i in range(n)]
    queue = [s for s in order if before.players[s].horde]
    scored["orcs"] = [0] * n
    if before.age == before.config.ages:
        for s in queue:
            scored["orcs"][s] = orc_glory(before, len(before.players[s].horde))
            gains[s] += scored["orcs"][s]
        queue = []
    if queue:
        return Next(DecisionKind.HORDE_EMPTY, queue[0], gains, {"after": tuple(queue[1:])})
    return _finish_age(before, gains, drawer, scored)


def _finish_age(
    before: GameState, gains: list[int], drawer: int, scored: dict[str, list[int]] | None = None
) -> Next:
    """END-4..6: bands scored; the game ends after the last Age, else the next Age begins with
    the player of least Glory (AGE-5)."""
    bands = bands_gains(before)
    for seat, g in enumerate(bands):
        gains[seat] += g
    glory = [p.glory + g for p, g in zip(before.players, gains, strict=True)]
    if scored is not None:
        scored = {**scored, "bands": bands}
    if before.age == before.config.ages:
        sizes = [[b.size for b in p.bands] for p in before.players]
        markers = [sum(p.kingdoms) for p in before.players]
        won = winners(glory, markers, sizes)
        return Next(DecisionKind.GAME_OVER, None, gains, winners=won, age_scored=scored)
    first = least_glory_seat(glory, drawer)
    following = _deal(first, 1, gains)
    following.age_scored = scored
    return following


def _band_flow(
    before: GameState,
    seat: int,
    kind: DecisionKind,
    action: Action,
    facts: dict[str, Any],
    gains: list[int],
) -> Next:
    """BAND-6 and §7: lay down the band → placement → Leader ability → (Centaur chain) → the
    rest of the hand; a recruit, a pass and the other turns' ends go to the next player."""
    player = before.players[seat]
    if isinstance(action, Recruit):
        if action.card is None:
            return Next(DecisionKind.DECK_DRAW, None, gains, {"drawer": seat})
        return _turn_of(before, seat, gains)
    if isinstance(action, Pass):
        return _turn_of(before, seat, gains)
    if isinstance(action, PlayBand):
        chain = 0 if kind is DecisionKind.TURN else facts["chain"] + 1
        hand = without(player.hand, action.cards)
        size = len(action.cards)
        kingdoms = placement_kingdoms(before, seat, action.leader, size)
        flow = _Flow(before, seat, action.leader, size, chain, hand, gains)
        if kingdoms and before.options.placement == "optional":
            return Next(DecisionKind.PLACEMENT, seat, gains)
        if len(kingdoms) == 1:  # placement=mandatory, one kingdom: placed at once (BAND-5a)
            return flow.ability(placed=True)
        if kingdoms:
            return Next(DecisionKind.PLACEMENT, seat, gains)
        return flow.ability(placed=False)
    band = facts["band"]
    flow = _Flow(before, seat, band.leader, band.size, facts["chain"], player.hand, gains)
    if isinstance(action, Place):
        return flow.ability(placed=action.kingdom is not None)
    if isinstance(action, Checkpoint):
        left = facts["left"] - 1
        supply = player.supply - (action.kingdom is not None)
        if left and supply:
            return Next(DecisionKind.MERFOLK_CHECKPOINT, seat, gains, {"left": left})
        return flow.rest()
    if isinstance(action, AddToHorde | TakeTroll):
        return flow.rest()
    if isinstance(action, StopChain):
        return flow.rest()
    if isinstance(action, Keep):
        if action.card is not None:
            return Next(DecisionKind.ELF_KEEP, seat, gains)
        return _turn_of(before, seat, gains)
    assert isinstance(action, WizardDraw)
    if action.count:
        return Next(DecisionKind.WIZARD_DRAW, None, gains, {"drawer": seat, "left": action.count})
    return _turn_of(before, seat, gains)


@dataclass
class _Flow:
    """A band after its placement (BAND-6): its Leader's ability, a Centaur chain, the rest."""

    before: GameState
    seat: int
    leader: Card
    size: int
    chain: int
    hand: tuple[Card, ...]
    gains: list[int]

    def ability(self, placed: bool) -> Next:
        """The Leader ability (§7) after the placement, ``placed`` or not."""
        state, seat, code = self.before, self.seat, self.leader.tribe.code
        player = state.players[seat]
        supply = player.supply - placed
        if code == "GIA" and self.size > state.giant_size:  # TRIBE-GIA-1
            self.gains[seat] += GIANT_GLORY
        if code == "MER":  # TRIBE-MER-1/2
            board = state.options.merfolk_board
            start = player.merfolk or 0
            end = min(start + self.size, board.last_space)
            crossed = sum(1 for c in board.checkpoints if start < c <= end)
            if state.options.merfolk_checkpoints == "one_per_move":
                crossed = min(crossed, 1)
            if crossed and supply:
                left = {"left": crossed}
                return Next(DecisionKind.MERFOLK_CHECKPOINT, seat, self.gains, left)
        if code == "ORC" and supply and self.leader.colour not in player.horde:  # TRIBE-ORC-1
            return Next(DecisionKind.ORC_HORDE, seat, self.gains)
        if code == "TRO" and any(v <= self.size for v in unclaimed_trolls(state)):
            return Next(DecisionKind.TROLL_TOKEN, seat, self.gains)  # TRIBE-TRO-1
        single = state.options.centaur_chain == "single" and self.chain > 0
        chains = code == "CEN" and placed and not single  # TRIBE-CEN-1/2
        if chains and every_band(self.hand, state.rules.hand_limit):
            return Next(DecisionKind.CENTAUR_CHAIN, seat, self.gains)
        return self.rest()

    def rest(self) -> Next:
        """BAND-6, TRIBE-CEN-3: the last Leader handles the rest of the hand: Elves keep,
        Wizards draw after discarding, anything else discards it all; the turn ends."""
        code = self.leader.tribe.code
        if code == "ELF" and self.hand:
            return Next(DecisionKind.ELF_KEEP, self.seat, self.gains)
        if code == "WIZ":
            return Next(DecisionKind.WIZARD_COUNT, self.seat, self.gains)
        return _turn_of(self.before, self.seat, self.gains)
