"""The small scopes searched exhaustively: small editions declared from the first edition, and
the setup each search starts from.

Each scope is a game small enough that every reachable state can be visited: two colours (so
two kingdoms), one copy of each card, a hand of 2 or 3, one Dragon and one Age (two Dragons or
two Ages where a rule needs them). What a scope leaves to chance (tribes, glory tokens, the
first player) multiplies its states; most scopes give some of it, one leaves it all to chance.
Together they reach every tribe's ability, the 2-player rules (BAND-5 counting both players'
markers, SCORE-2P-1) and the tie splits of SCORE-K-3; ``covers`` lists what each must reach,
and a search that does not reach it fails.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ethnos_rules import (
    FIRST_EDITION,
    GameState,
    MerfolkBoard,
    Options,
    Ruleset,
    apply,
    legal_actions,
    new_game,
)


def edition(
    name: str,
    tribes: Sequence[str],
    *,
    colours: Sequence[str] = ("red", "blue"),
    copies: int = 1,
    per_tribe: Mapping[str, int] | None = None,
    wild: int = 0,
    in_play: int | None = None,
    dragons: int = 1,
    ages: int = 1,
    hand: int = 2,
    tokens: Sequence[int] = (1, 2, 3, 4),
    players: tuple[int, int] = (2, 2),
    markers: int = 26,
    board: MerfolkBoard | None = None,
) -> Ruleset:
    """A small edition of the first edition's ``tribes``, ``in_play`` of them (all by default)
    in play: ``colours`` (their kingdoms), ``copies`` of each card (Halflings too) unless
    ``per_tribe`` says otherwise, ``wild`` Skeletons, and the rest as given; two glory-token
    spaces per kingdom (SCORE-2P-1 pays I and II), no 4+ tokens."""
    options = Options(
        glory_tokens=tuple(tokens),
        glory_tokens_4plus=(),
        merfolk_board=board or MerfolkBoard(),
    )
    spaces = max(2, ages)
    changes: dict[str, Any] = {"wild_copies": wild} if "SKE" in tribes else {}
    return FIRST_EDITION.variant(
        f"small-{name}",
        tribes=list(tribes),
        colours=list(colours),
        copies=copies,
        copies_per_colour=dict(per_tribe or {}),
        markers=markers,
        dragons=dragons,
        ages=(ages, ages),
        tribes_in_play=(in_play or len(tribes), in_play or len(tribes)),
        token_spaces=(spaces, spaces),
        players=players,
        hand_limit=hand,
        default_options=options,
        **changes,
    )


@dataclass(frozen=True)
class Scope:
    """A small game searched exhaustively: its edition, players and the setup given (what is
    not given is left to chance), and the rules its search must reach."""

    name: str
    edition: Ruleset
    players: int
    setup: Mapping[str, Any] = field(default_factory=dict)
    covers: tuple[str, ...] = ()
    from_age: int = 1

    def start(self) -> GameState:
        """The state the search starts from: the new game, or (``from_age`` above 1) the start
        of that Age after an opening played by taking the first legal decision each time (and
        chance's first outcome): the search then covers every later Age from there."""
        state = new_game(self.players, ruleset=self.edition, **self.setup)
        while state.age < self.from_age:
            state = apply(state, legal_actions(state)[0])
        return state


GIVEN = {"first_player": 0, "glory_tokens": [[1, 2], [3, 4]]}
"""Setup given to most 2-kingdom scopes: the first player and the tokens."""


_MANDATORY = {"placement": "mandatory"}


def _options(tokens: Sequence[int], **choices: Any) -> Options:
    """Rule options with these glory tokens (no 4+ ones) and these choices (spec §12)."""
    board = choices.pop("merfolk_board", MerfolkBoard())
    return Options(
        glory_tokens=tuple(tokens), glory_tokens_4plus=(), merfolk_board=board, **choices
    )


_SMALL_TRACK = MerfolkBoard(last_space=3, checkpoints=(1, 3))
"""A Merfolk track a band of 1 or 2 cards gets along: checkpoints on spaces 1 and 3."""

ONE_COLOUR = {"first_player": 0, "glory_tokens": [[1, 3]]}
"""Setup given to the one-kingdom scopes: the first player and the tokens."""

SCOPES: tuple[Scope, ...] = (
    Scope(
        "merfolk-trolls-options",
        edition("merfolk-trolls-options", ["MER", "TRO", "SKE"], wild=2, markers=3),
        2,
        {
            **GIVEN,
            "options": _options(
                (1, 2, 3, 4),
                merfolk_board=MerfolkBoard(last_space=3, checkpoints=(1, 2)),
                merfolk_checkpoints="one_per_move",
                merfolk_scoring="first_only",
                troll_tiebreak="first_only",
            ),
        },
        (
            "TRIBE-MER-1 the Merfolk moved",
            "TRIBE-MER-2 a checkpoint marker placed",
            "TRIBE-MER-3 the Merfolk board scored",
            "TRIBE-TRO-1 a Troll token taken",
            "TRIBE-TRO-2 Troll tokens broke a tie",
            "BAND-5 no placement: supply",
        ),
    ),
    Scope(
        "merfolk-dwarves",
        edition("merfolk-dwarves", ["MER", "DWA", "SKE"], wild=2, board=_SMALL_TRACK),
        2,
        GIVEN,
        (
            "TRIBE-MER-1 the Merfolk moved",
            "TRIBE-MER-2 a checkpoint marker placed",
            "TRIBE-MER-3 the Merfolk board scored",
            "TRIBE-DWA-1 the bonus scored",
            "BAND-4 DWA leads",
            "SCORE-2P-1 first and second",
            "GAME-2 decided the game",
        ),
    ),
    Scope(
        "giants-trolls",
        edition("giants-trolls", ["GIA", "TRO", "SKE"], wild=2, markers=3),
        2,
        GIVEN,
        (
            "TRIBE-GIA-1 the Giant token taken",
            "TRIBE-GIA-1 a Giant band not larger",
            "TRIBE-GIA-2 the Giant token scored",
            "TRIBE-TRO-1 a Troll token taken",
            "TRIBE-TRO-2 Troll tokens broke a tie",
            "BAND-5 no placement: supply",
        ),
    ),
    Scope(
        "orcs-giants-two-ages",
        edition(
            "orcs-giants-two-ages",
            ["ORC", "GIA"],
            colours=["red"],
            copies=3,
            hand=1,
            ages=2,
            tokens=(1, 3),
            markers=3,
        ),
        2,
        ONE_COLOUR,
        (
            "TRIBE-ORC-1 a Horde marker added",
            "TRIBE-ORC-2 emptied by choice",
            "TRIBE-ORC-2 kept by choice",
            "TRIBE-ORC-2 emptied forced",
            "TRIBE-GIA-2 the Giant token scored",
            "AGE-5 the first player by least glory",
            "AGE-5 the first player by least glory (tied)",
            "GAME-2 decided the game",
        ),
    ),
    Scope(
        "wingfolk-halflings-tokens",
        edition("wingfolk-halflings-tokens", ["WIN", "HAL", "SKE"], wild=2, tokens=(1, 1, 3, 3)),
        2,
        {"first_player": 0},
        (
            "TRIBE-WIN-1 a marker in another kingdom",
            "BAND-4 HAL leads",
            "BAND-5 no placement: never",
            "SETUP-4 tokens laid by chance",
        ),
    ),
    Scope(
        "elves-wizards",
        edition("elves-wizards", ["ELF", "WIZ", "SKE"], wild=2),
        2,
        GIVEN,
        (
            "TRIBE-ELF-1 a card kept",
            "TURN-3 a pass",
            "BAND-3 a Skeleton in a band",
            "TRIBE-SKE-1 Skeletons removed before scoring",
            "SCORE-2P-1 a tie",
            "SCORE-2P-1 a lone contender",
            "BAND-5 both players' markers counted (2 players)",
            "BAND-5a a placement declined",
            "GAME-3 decided the game",
        ),
    ),
    Scope(
        "centaurs-minotaurs",
        edition("centaurs-minotaurs", ["CEN", "MIN", "SKE"], wild=2),
        2,
        GIVEN,
        (
            "TRIBE-CEN-1 a chain offered",
            "TRIBE-CEN-2 a chained band",
            "TRIBE-MIN-1 the +1 decided",
            "BAND-5 both players' markers counted (2 players)",
        ),
    ),
    Scope(
        "three-players",
        edition(
            "three-players",
            ["TRO", "DWA"],
            colours=["red"],
            copies=4,
            per_tribe={"TRO": 5},
            hand=1,
            players=(3, 3),
            tokens=(1, 3),
            markers=2,
        ),
        3,
        ONE_COLOUR,
        ("SCORE-K-3 a tie of 2 from rank 1", "SCORE-K-3 a tie of 3 from rank 1"),
    ),
    Scope(
        "three-players-age-two",
        edition(
            "three-players-age-two",
            ["TRO", "DWA"],
            colours=["red"],
            copies=4,
            per_tribe={"TRO": 5},
            hand=1,
            players=(3, 3),
            ages=2,
            tokens=(1, 3),
            markers=2,
        ),
        3,
        ONE_COLOUR,
        ("SCORE-K-3 a tie of 2 from rank 2", "SCORE-K-3 a share rounded down"),
        from_age=2,
    ),
    Scope(
        "elves-wizards-one-colour",
        edition(
            "elves-wizards-one-colour",
            ["ELF", "WIZ"],
            colours=["red"],
            copies=3,
            per_tribe={"WIZ": 4},
            hand=1,
            tokens=(1, 3),
        ),
        2,
        {**ONE_COLOUR, "options": _options((1, 3), **_MANDATORY)},
        ("TRIBE-WIZ-1 a card drawn by Wizards",),
    ),
    Scope(
        "two-dragons",
        edition(
            "two-dragons",
            ["ELF", "WIZ"],
            colours=["red"],
            copies=3,
            per_tribe={"WIZ": 4},
            hand=1,
            dragons=2,
            tokens=(1, 3),
        ),
        2,
        {**ONE_COLOUR, "options": _options((1, 3), **_MANDATORY)},
        ("RECRUIT-3 a Dragon set aside", "TRIBE-WIZ-1 a card drawn by Wizards"),
    ),
)
"""Every scope ``make exhaustive`` searches, the largest first (so that two processes end
together)."""

SMALLEST: tuple[Scope, ...] = (
    Scope(
        "options",
        edition("options", ["CEN", "ELF", "WIZ", "SKE"], colours=["red"], wild=3, tokens=(1, 3)),
        2,
        {
            **ONE_COLOUR,
            "options": _options(
                (1, 3),
                placement="mandatory",
                elves_keep="exactly_x",
                wizard_draw="up_to_x",
                centaur_chain="single",
                two_player_final_tie="split_I_plus_II",
            ),
        },
        ("TRIBE-ELF-1 a card kept", "TRIBE-CEN-1 a chain offered", "SCORE-2P-1 a tie"),
    ),
    Scope(
        "tribes-by-chance",
        edition(
            "tribes-by-chance",
            ["ELF", "DWA", "HAL"],
            colours=["red"],
            in_play=2,
            copies=3,
            hand=1,
            tokens=(1, 3),
            markers=2,
        ),
        2,
        {},
        (
            "SETUP-3 a tribe chosen by chance",
            "SETUP-4 tokens laid by chance",
            "AGE-5 the first player by chance",
        ),
    ),
    Scope(
        "wizards-skeleton",
        edition(
            "wizards-skeleton",
            ["WIZ", "SKE"],
            colours=["red"],
            copies=6,
            wild=1,
            hand=1,
            tokens=(1, 3),
        ),
        2,
        {**ONE_COLOUR, "options": _options((1, 3), **_MANDATORY)},
        ("TRIBE-WIZ-1 a card drawn by Wizards", "TURN-3 a pass"),
    ),
)
"""The smallest scopes: searched by ``make exhaustive`` and inside the test suite."""

ALL: tuple[Scope, ...] = SCOPES + SMALLEST
"""Every scope ``make exhaustive`` searches."""

ONE_SEAT_SCOPES: tuple[Scope, ...] = (
    next(s for s in ALL if s.name == "elves-wizards-one-colour"),
    SMALLEST[2],
)
"""The scopes whose whole games are enumerated for the one-seat checks."""
