"""Adversarial games for one-seat records: players who hoard unseen cards.

The hard records for :func:`~ethnos_rules.resample` are those where several other players hold
many cards the seat never saw and show them late: they recruit from the deck, lead Elves and
keep as many cards as they may, let Wizards draw, chain Centaurs. :func:`hoarding_game` plays
such a game: a random legal game whose choices lean that way, with exact chance.
"""

from __future__ import annotations

import random

from ethnos_rules import (
    Action,
    GameState,
    Options,
    PlayBand,
    Playthrough,
    apply,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
)
from strategies import random_decision

HOARDING_TRIBES = ("CEN", "ELF", "GIA", "HAL", "SKE", "WIZ")
"""Elves keep unseen, Wizards draw unseen, Centaurs chain, Halflings and Skeletons fill hands."""


def hoarding_decision(state: GameState, rng: random.Random) -> Action:
    """A chance outcome with its exact probability, or a legal action of a hoarder: draw
    blind while the hand has room, play the largest band an Elf leads (else a Wizard, a
    Centaur, any), keep as many cards as may be kept, go on with every chain."""
    if is_chance(state):
        return random_decision(state, rng)
    legal = legal_actions(state)
    if rng.random() < 0.1:
        return rng.choice(legal)
    texts = {str(a): a for a in legal}
    if "recruit deck" in texts and rng.random() < 0.85:
        return texts["recruit deck"]
    keeps = [a for t, a in texts.items() if t.startswith("keep") and t != "keep done"]
    if keeps:
        return rng.choice(keeps)
    bands = [a for a in legal if isinstance(a, PlayBand)]
    if bands:
        return max(bands, key=lambda b: (_LEADERS.get(b.leader.tribe.code, 0), len(b.cards)))
    return rng.choice(legal)


_LEADERS = {"ELF": 3, "WIZ": 2, "CEN": 1}


def hoarding_game(players: int, seed: int, *, limit: int | None = None) -> Playthrough:
    """A whole game (or its first ``limit`` decisions) of hoarders, seeded."""
    rng = random.Random(seed)
    options = Options(wizard_draw=rng.choice(("all_or_none", "up_to_x")))
    tribes = HOARDING_TRIBES if players >= 4 else HOARDING_TRIBES[1:]  # 5 tribes for 2-3
    start = state = new_game(players, tribes=tribes, options=options, first_player=0)
    actions: list[Action] = []
    while not is_terminal(state) and (limit is None or len(actions) < limit):
        action = hoarding_decision(state, rng)
        actions.append(action)
        state = apply(state, action)
    return Playthrough(start, tuple(actions), state)
