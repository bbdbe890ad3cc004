"""Rule options: every spec ruling that a referee could decide the other way (spec §12).

Each option defaults to the spec's ruling; the alternatives are listed in the field's docs.
"""

from __future__ import annotations

import functools
import typing
from collections import Counter
from typing import Any, Literal

import attrs

from .errors import SetupError
from .frozen import defaults_when_unpickled
from .said import said
from .words import given

Placement = Literal["optional", "mandatory"]
MerfolkCheckpoints = Literal["one_per_checkpoint", "one_per_move"]
MerfolkScoring = Literal["like_kingdom", "first_only"]
CentaurChain = Literal["allowed", "single"]
ElvesKeep = Literal["up_to_x", "exactly_x"]
WizardDraw = Literal["all_or_none", "up_to_x"]
OrcEmpty = Literal["all_or_nothing", "any_subset"]
TrollTiebreak = Literal["all_ranks", "first_only"]
TwoPlayerFinalTie = Literal["split_II", "split_I_plus_II"]


def _choice(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    allowed = _choices()[attribute.name]
    if value not in allowed:
        raise SetupError(
            "OPTIONS",
            said(
                "option {name}={value} is not one of {allowed}",
                name=attribute.name,
                value=given(value),
                allowed=", ".join(allowed),
            ),
        )


def _int_list(rule: str, what: str, value: Any) -> tuple[int, ...]:
    """A list or tuple of non-negative ints as a tuple; anything else is refused rather than
    converted (the text ``"37"`` is not the checkpoints 3 and 7)."""
    if not isinstance(value, list | tuple):
        raise SetupError(
            rule,
            said("{what} must be a list of integers, not {value}", what=what, value=given(value)),
        )
    if any(type(v) is not int or v < 0 for v in value):
        raise SetupError(
            rule,
            said(
                "{what} must be non-negative integers, not {values}",
                what=what,
                values=given(list(value)),
            ),
        )
    return tuple(value)


def _token_values(value: Any) -> tuple[int, ...]:
    return _int_list("COMP-5", "glory token values", value)


def _track_values(value: Any) -> tuple[int, ...]:
    return _int_list("COMP-10", "Merfolk board spaces and values", value)


def _board(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, MerfolkBoard):
        raise SetupError(
            "COMP-10", said("merfolk_board must be a MerfolkBoard, not {value}", value=given(value))
        )


@defaults_when_unpickled  # a field added later loads from an older pickle as its default
@attrs.frozen
class MerfolkBoard:
    """The Merfolk track (COMP-10): spaces ``0..last_space``, checkpoint spaces, award values.

    Attributes:
        last_space: The last space; movement stops there (TRIBE-MER-1).
        checkpoints: Spaces that carry a marker symbol (TRIBE-MER-2).
        values_large: Award values I, II, III on the 4–6 players side.
        values_small: Award values I, II on the 2–3 players side.
    """

    last_space: int = 18
    checkpoints: tuple[int, ...] = attrs.field(default=(3, 7, 12, 18), converter=_track_values)
    values_large: tuple[int, ...] = attrs.field(default=(1, 2, 4), converter=_track_values)
    values_small: tuple[int, ...] = attrs.field(default=(1, 3), converter=_track_values)

    def __attrs_post_init__(self) -> None:
        if type(self.last_space) is not int or self.last_space < 1:
            raise SetupError(
                "COMP-10",
                said(
                    "last_space must be an integer ≥ 1, not {last_space}",
                    last_space=given(self.last_space),
                ),
            )
        if len(set(self.checkpoints)) != len(self.checkpoints):
            raise SetupError(
                "COMP-10",
                said("a space carries one checkpoint: {checkpoints}", checkpoints=self.checkpoints),
            )
        if any(not 0 < c <= self.last_space for c in self.checkpoints):
            raise SetupError(
                "COMP-10",
                said(
                    "Merfolk checkpoints {checkpoints} off the track", checkpoints=self.checkpoints
                ),
            )
        if len(self.values_large) != 3 or len(self.values_small) != 2:
            raise SetupError(
                "COMP-10", said("the Merfolk board needs 3 values (4-6p) and 2 (2-3p)")
            )


@defaults_when_unpickled  # an option added later loads from an older pickle as its default
@attrs.frozen
class Options:
    """The rule options of spec §12; every default is the spec's ruling.

    >>> from ethnos_rules import Options
    >>> Options().placement
    'optional'
    >>> Options(wizard_draw="sometimes")
    Traceback (most recent call last):
    ...
    ethnos_rules.SetupError: OPTIONS: option wizard_draw='sometimes' is not one of ...

    Attributes:
        placement: BAND-5a — ``"optional"`` (the player may decline) or ``"mandatory"``.
        merfolk_checkpoints: TRIBE-MER-2 — ``"one_per_checkpoint"`` or ``"one_per_move"``.
        merfolk_scoring: TRIBE-MER-3 — ``"like_kingdom"`` or ``"first_only"`` (only the players
            furthest ahead earn, the Age's value split among them).
        centaur_chain: TRIBE-CEN-2 — ``"allowed"`` or ``"single"`` (no third band).
        elves_keep: TRIBE-ELF-1 — ``"up_to_x"`` or ``"exactly_x"``.
        wizard_draw: TRIBE-WIZ-1 — ``"all_or_none"`` or ``"up_to_x"``.
        orc_empty: TRIBE-ORC-2 — ``"all_or_nothing"`` or ``"any_subset"``.
        troll_tiebreak: SCORE-K-3 — ``"all_ranks"`` or ``"first_only"``.
        two_player_final_tie: SCORE-2P-1 — ``"split_II"`` or ``"split_I_plus_II"``.
        glory_tokens: COMP-5 — the face values of all glory tokens: the first edition's 18 by
            default (a game checks that they fill its edition's kingdoms, SETUP-4).
        glory_tokens_4plus: COMP-5 — the tokens removed with 2–3 players.
        merfolk_board: COMP-10 — the Merfolk track data.
    """

    placement: Placement = attrs.field(default="optional", validator=_choice)
    merfolk_checkpoints: MerfolkCheckpoints = attrs.field(
        default="one_per_checkpoint", validator=_choice
    )
    merfolk_scoring: MerfolkScoring = attrs.field(default="like_kingdom", validator=_choice)
    centaur_chain: CentaurChain = attrs.field(default="allowed", validator=_choice)
    elves_keep: ElvesKeep = attrs.field(default="up_to_x", validator=_choice)
    wizard_draw: WizardDraw = attrs.field(default="all_or_none", validator=_choice)
    orc_empty: OrcEmpty = attrs.field(default="all_or_nothing", validator=_choice)
    troll_tiebreak: TrollTiebreak = attrs.field(default="all_ranks", validator=_choice)
    two_player_final_tie: TwoPlayerFinalTie = attrs.field(default="split_II", validator=_choice)
    glory_tokens: tuple[int, ...] = attrs.field(
        default=(0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10), converter=_token_values
    )
    glory_tokens_4plus: tuple[int, ...] = attrs.field(
        default=(0, 4, 4, 6, 6, 10), converter=_token_values
    )
    merfolk_board: MerfolkBoard = attrs.field(factory=MerfolkBoard, validator=_board)

    def __attrs_post_init__(self) -> None:
        # How many tokens there are is the edition's to check (Ruleset.check_options): a game
        # lays them all on its kingdoms.
        if Counter(self.glory_tokens_4plus) - Counter(self.glory_tokens):
            raise SetupError("COMP-5", said("the 4+ tokens must be among the glory tokens"))

    @classmethod
    def choices(cls) -> dict[str, tuple[str, ...]]:
        """Every switch of spec §12 with its allowed values, the default first.

        >>> from ethnos_rules import Options
        >>> Options.choices()["wizard_draw"]
        ('all_or_none', 'up_to_x')
        """
        return dict(_choices())

    def token_pool(self, players: int) -> tuple[int, ...]:
        """The tokens laid on the board for this player count, sorted (SETUP-4)."""
        return _token_pool(self.glory_tokens, self.glory_tokens_4plus if players <= 3 else ())


@functools.lru_cache(maxsize=64)  # asked for at each token laid
def _token_pool(tokens: tuple[int, ...], left_out: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((Counter(tokens) - Counter(left_out)).elements()))


@functools.cache
def _choices() -> dict[str, tuple[str, ...]]:
    """Each switch's values, read from its ``Literal`` type (the one place they are written),
    the default first (checked here)."""
    hints = typing.get_type_hints(Options)
    out: dict[str, tuple[str, ...]] = {}
    for field in attrs.fields(Options):
        if field.validator is _choice:
            out[field.name] = typing.get_args(hints[field.name])
            assert out[field.name][0] == field.default, f"{field.name}: the default comes first"
    return out


def check_options(options: object) -> None:
    """Refuse what is not an :class:`Options` (a dict of options is not one)."""
    if not isinstance(options, Options):
        hint = "; Options(**{...}) builds one from a dict" if isinstance(options, dict) else ""
        raise SetupError(
            "OPTIONS",
            said(
                "options must be an Options, not {type}{hint}",
                type=type(options).__name__,
                hint=hint,
            ),
        )
