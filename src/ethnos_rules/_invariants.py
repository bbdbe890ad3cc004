"""What every reachable state satisfies; used to refuse corrupt snapshots and built positions.

Each check says what is wrong in words a reader of the rules understands.
"""

from __future__ import annotations

from collections import Counter

from ._actions import PlayBand
from ._bands import band_problem
from ._components import KINGDOMS
from ._errors import RulesError
from ._state import GameState


class InvalidStateError(RulesError):
    """A state (a snapshot or a built position) that no legal game can reach.

    Attributes:
        problems: Every problem found, in words.
    """

    def __init__(self, problems: tuple[str, ...]) -> None:
        self.problems = problems
        super().__init__("STATE", "; ".join(problems))

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.problems,))


def state_problems(state: GameState) -> tuple[str, ...]:
    """Every broken invariant of ``state``, in words; ``()`` for a sound state."""
    out: list[str] = []
    out += _card_problems(state)
    out += _player_problems(state)
    out += _board_problems(state)
    return tuple(out)


def check_state(state: GameState) -> GameState:
    """Return ``state`` if it is sound.

    Raises:
        InvalidStateError: listing every broken invariant.
    """
    problems = state_problems(state)
    if problems:
        raise InvalidStateError(problems)
    return state


def card_count(state: GameState) -> Counter[int]:
    """Copies of each card kind (by index) anywhere: deck, row, hands, bands, discard."""
    counts: Counter[int] = Counter({i: n for i, n in enumerate(state.deck) if n})
    places = [state.row, state.discard]
    for player in state.players:
        places.append(player.hand)
        places.extend(band.cards for band in player.bands)
    for cards in places:
        counts.update(card.index for card in cards)
    return counts


def _card_problems(state: GameState) -> list[str]:
    rules = state.rules
    out = []
    for card, n in zip(rules.cards, state.deck, strict=False):
        if n < 0:
            out.append(f"more {card} cards are placed than the game has ({-n} too many)")
    if len(state.tribes) == state.config.tribe_count:
        expected = Counter({i: n for i, n in enumerate(rules.cards_of(state.tribes)) if n})
        found = card_count(state)
        for index in sorted(set(expected) | set(found)):
            if found[index] != expected[index]:
                card = rules.cards[index]
                out.append(f"{card} appears {found[index]} times, the game has {expected[index]}")
    if not 0 <= state.dragons_drawn + state.dragons_in_deck <= rules.dragons:
        out.append("more Dragons drawn and in the deck than the game has")
    if state.top_left > sum(state.deck):
        out.append("the top part of the deck holds more cards than the deck")
    return out


def _player_problems(state: GameState) -> list[str]:
    rules = state.rules
    out = []
    for seat, player in enumerate(state.players):
        if len(player.hand) > rules.hand_limit:
            out.append(f"seat {seat} holds {len(player.hand)} cards, more than {rules.hand_limit}")
        for band in player.bands:
            problem = band_problem(band.cards, PlayBand.of(band.leader, *band.others))
            if problem is not None:
                out.append(f"seat {seat} has an invalid band {band}: {problem[1]}")
        on_board = sum(player.kingdoms) + len(player.horde) + (player.merfolk is not None)
        if player.supply < 0 or any(n < 0 for n in player.kingdoms):
            out.append(f"seat {seat} has a negative number of markers somewhere")
        total = player.supply + on_board + 1
        if total != rules.markers:
            out.append(f"seat {seat}'s markers add up to {total}, not {rules.markers}")
        if player.glory < 0:
            out.append(f"seat {seat} has negative Glory")
        if len(set(player.horde)) != len(player.horde):
            out.append(f"seat {seat}'s Horde has two markers on one space")
    held = Counter(v for p in state.players for v in p.trolls)
    if held - Counter(rules.troll_tokens):
        out.append("Troll tokens are held that do not exist or are held twice")
    return out


def _board_problems(state: GameState) -> list[str]:
    out = []
    if len(state.tokens) == len(KINGDOMS):
        laid = Counter(v for row in state.tokens for v in row)
        if laid != Counter(state.options.token_pool(state.config.players)):
            out.append("the glory tokens on the board are not the game's tokens")
    merfolk = any(t.ability.track for t in state.tribes)
    if len(state.tribes) == state.config.tribe_count and any(
        (p.merfolk is not None) != merfolk for p in state.players
    ):
        out.append("Merfolk markers must be on the Merfolk board exactly when Merfolk are in play")
    return out
