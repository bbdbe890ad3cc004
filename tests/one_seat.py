"""Small constructed games kept at one seat, and a brute-force enumerator to check them against.

A case starts from a :func:`~ethnos_rules.position` in the last Age where most cards lie in
bands already, so the deck holds a handful of cards of a few kinds and the other players hold
none: enumerating every way to name the hidden cards is then cheap. A random legal game is
played from there, written as one seat saw it, and now and then spoilt (a card changed, a
decision dropped or added) so that some cases fit no game.

:func:`enumerate_games` is the brute force: it replays the record trying every card kind for
each ``reveal ?`` and every card for each ``keep ?``, and keeps each complete game whose view
from the seat is the record, with the probability its chance outcomes have.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ethnos_rules import (
    Action,
    GameState,
    Keep,
    RulesError,
    apply,
    chance_outcomes,
    is_chance,
    is_terminal,
    legal_actions,
    parse_action,
    position,
)
from ethnos_rules._seat.seatview import seat_actions
from strategies import random_decision

SMALL_TRIBES = (
    ("CEN", "ELF", "SKE", "WIZ", "DWA"),
    ("ELF", "HAL", "SKE", "CEN", "ORC"),
    ("WIZ", "ELF", "TRO", "SKE", "MIN"),
)
"""Tribe sets for the small cases: the tribes whose hidden cards matter most (Elves keep
unseen, Centaurs chain, Wizards draw unseen, Skeletons make passes)."""


@dataclass(frozen=True)
class Case:
    """A record kept at ``seat`` from ``start``, and how it was made."""

    start: GameState
    seat: int
    items: tuple[Action, ...]
    spoilt: str = ""

    def __repr__(self) -> str:
        return (
            f"Case(seat={self.seat}, spoilt={self.spoilt!r}, items={[str(a) for a in self.items]})"
        )


def small_start(rng: random.Random) -> GameState:
    """A position in the last Age with a deck of 5 to 9 cards and the other hands empty."""
    players = rng.choice((2, 2, 3))
    tribes = rng.choice(SMALL_TRIBES)
    probe = position(players, list(tribes))
    cards = [c for c, n in zip(probe.rules.cards, probe.deck, strict=True) for _ in range(n)]
    rng.shuffle(cards)
    deck_size = rng.randint(5, 9)
    seat = rng.randrange(players)
    hand, row, rest = cards[:2], cards[2:5], cards[5 + deck_size :]
    bands, skeletons = _bands_of(rest, players)
    return position(
        players,
        list(tribes),
        age=probe.config.ages,
        to_move=rng.randrange(players),
        hands={seat: [c.code for c in hand]},
        row=[c.code for c in row] + skeletons,
        bands=bands,
        top_left=rng.randint(0, deck_size // 2),
    )


def _bands_of(cards: Sequence[object], players: int) -> tuple[dict[int, list[str]], list[str]]:
    """The cards as same-tribe bands of at most 8 cards, Skeletons joining them two at a time,
    spread over the players; and the Skeletons left over."""
    by_tribe: dict[str, list[str]] = {}
    for card in cards:
        code = str(card)
        by_tribe.setdefault(code.split("-")[0], []).append(code)
    skeletons = by_tribe.pop("SKE", [])
    chunks = [sorted(c)[i : i + 8] for c in by_tribe.values() for i in range(0, len(c), 8)]
    bands: dict[int, list[str]] = {}
    for i, chunk in enumerate(chunks):
        wild, skeletons = skeletons[:2], skeletons[2:]
        bands.setdefault(i % players, []).append("*" + " ".join(chunk + wild))
    return bands, skeletons


def play_from(start: GameState, rng: random.Random, limit: int) -> tuple[Action, ...]:
    """Random legal decisions from ``start``, at most ``limit`` (fewer at the game's end)."""
    state, actions = start, list[Action]()
    while len(actions) < limit and not is_terminal(state):
        action = random_decision(state, rng)
        state = apply(state, action)
        actions.append(action)
    return tuple(actions)


def small_case(rng: random.Random, spoil: bool) -> Case:
    """A random small case; with ``spoil``, one item of it changed."""
    start = small_start(rng)
    seat = next(q for q, p in enumerate(start.players) if p.hand)
    full = play_from(start, rng, rng.randint(8, 40))
    items = seat_actions(start, full, seat)
    if not spoil or not items:
        return Case(start, seat, items)
    spoilt, how = _spoil(list(items), start, rng)
    return Case(start, seat, tuple(spoilt), how)


def _spoil(items: list[Action], start: GameState, rng: random.Random) -> tuple[list[Action], str]:
    """One item changed: a card swapped for another, a decision dropped, repeated or added."""
    i = rng.randrange(len(items))
    words = str(items[i]).split()
    cards = [c.code for c in start.rules.cards if c.tribe in start.tribes]
    how = rng.choice(("card", "card", "card", "drop", "repeat", "hide", "pass"))
    if how == "card" and len(words) > 1:
        j = rng.randrange(1, len(words))
        star = "*" if words[j].startswith("*") else ""
        words[j] = star + rng.choice([*cards, "?"] if words[0] in ("reveal", "keep") else cards)
        text = " ".join(words)
    elif how == "hide":
        text = "reveal ?" if words[0] == "reveal" else "keep ?" if words[0] == "keep" else "pass"
    elif how == "drop":
        del items[i]
        return items, f"dropped {i}"
    elif how == "repeat":
        text = str(items[i])
        i += 1
        items.insert(i, items[i - 1])
        return items, f"repeated {i - 1}"
    else:
        text = "pass"
    try:
        items[i] = parse_action(text)
    except RulesError:
        return items, "unchanged"
    return items, f"{i}: {text}"


# --- the brute force ------------------------------------------------------------------------------


@dataclass
class Enumeration:
    """What the brute force found: how many items some complete game fits, and every complete
    game that fits them all, with its probability (not normalised)."""

    fitted: int = 0
    games: dict[tuple[Action, ...], Fraction] = field(default_factory=dict)
    nodes: int = 0


class TooLarge(Exception):
    """The enumeration would visit more states than its budget."""


def enumerate_games(case: Case, budget: int = 20_000) -> Enumeration:
    """Every complete game from ``case.start`` that looks like ``case.items`` from its seat."""
    found = Enumeration()
    _search(case, case.start, 0, (), Fraction(1), found, budget)
    return found


def _search(
    case: Case,
    state: GameState,
    i: int,
    full: tuple[Action, ...],
    p: Fraction,
    found: Enumeration,
    budget: int,
) -> None:
    found.nodes += 1
    if found.nodes > budget:
        raise TooLarge
    found.fitted = max(found.fitted, i)
    if i == len(case.items):
        found.games[full] = p
        return
    for action, chance in _candidates(state, case.items[i]):
        try:
            seen = seat_actions(state, (action,), case.seat)
            after = apply(state, action)
        except RulesError:
            continue
        if tuple(case.items[i : i + len(seen)]) == seen:
            _search(case, after, i + len(seen), (*full, action), p * chance, found, budget)


def _candidates(state: GameState, item: Action) -> list[tuple[Action, Fraction]]:
    """Every concrete action the item may stand for, with its probability at a chance node."""
    if is_terminal(state):
        return []
    if is_chance(state):
        outcomes = chance_outcomes(state)
        return [(a, q) for a, q in outcomes if (_ally(a) if item.hidden else a == item)]
    if isinstance(item, Keep) and item.hidden:
        keeps = [a for a in legal_actions(state) if isinstance(a, Keep) and a.card is not None]
        return [(a, Fraction(1)) for a in keeps]
    return [(item, Fraction(1))]


def _ally(action: Action) -> bool:
    return "DRAGON" not in str(action)
