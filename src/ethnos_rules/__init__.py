"""ethnos-rules: a referee for the board game *Ethnos* (first edition, 2–6 players).

A game is an immutable :class:`GameState` and a few pure functions: :func:`legal_actions` lists
every legal decision, :func:`apply` returns the next state or raises a :class:`RulesError`
naming the rule broken. Chance (shuffles, draws) is a decision like any other, with exact
probabilities from :func:`chance_outcomes`. :func:`step` applies a decision as :func:`apply`
does and also says what it did, as :class:`Event` objects; :func:`replay` and
:meth:`GameRecord.accept` hand a whole game to a :class:`Visitor`.

>>> import random
>>> from ethnos_rules import new_game, sample, legal_actions, apply, to_move, glory
>>> state = sample(new_game(4, first_player=0), random.Random(1))
>>> to_move(state)
0
>>> actions = legal_actions(state)
>>> str(actions[0]).startswith("recruit")
True
>>> state = apply(state, actions[0])
>>> glory(state)
(0, 0, 0, 0)
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, Any

# Imported at once: the errors (shown below as this package's own, also in tracebacks raised
# before any other name is asked for) and the pictures' drawers, which the rules' states and
# observations draw themselves with (str(), Jupyter); that loads the state's module, not the
# rules' others.
from . import _pictures  # noqa: F401
from ._io.jsonio import RecordError
from ._pictures import words as _picture_words
from ._rules.errors import (
    GameOverError,
    HiddenCardError,
    IllegalActionError,
    ImpossibleOutcomeError,
    InvalidStateError,
    MalformedActionError,
    RulesError,
    SetupError,
    WrongDecisionError,
)

# Modules that moved out of the rules kernel into the layers that read the game (issue 36). A
# pickle made before names a class by its old module: the old name finds the new module.
_MOVED = {
    "ethnos_rules._rules.invariants": "ethnos_rules._checks.invariants",
    "ethnos_rules._rules.replay": "ethnos_rules._replay.replay",
    "ethnos_rules._rules.position": "ethnos_rules._replay.position",
    "ethnos_rules._rules.observation": "ethnos_rules._seat.observation",
    "ethnos_rules._rules.seatview": "ethnos_rules._seat.seatview",
    "ethnos_rules._rules.resample": "ethnos_rules._seat.resample",
    "ethnos_rules._rules.memo": "ethnos_rules._seat.memo",
    "ethnos_rules._rules.drawing": "ethnos_rules._pictures.drawing",
    "ethnos_rules._rules.picture": "ethnos_rules._pictures.picture",
    "ethnos_rules._rules.changes": "ethnos_rules._pictures.changes",
}


def _picture_speaker(lang: str) -> Any:
    """What the pictures say their words in ``lang`` with (``_pictures.words``): the
    catalogues, read when a picture is first drawn in another language than English."""
    from ._text.i18n import language, say

    code = language(lang)
    return lambda text: say(text, code)


_picture_words.SPEAKERS["say"] = _picture_speaker


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a moved module's old name as its new module (asked last, after every finder)."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> ModuleSpec | None:
        return importlib.util.spec_from_loader(name, self) if name in _MOVED else None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return importlib.import_module(_MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the new module is already imported."""


sys.meta_path.append(_MovedModules())

# Every other public name is imported from its module when first asked for (PEP 562
# ``__getattr__`` below): records, their schema and cattrs, seat views, narration and the
# checks cost nothing to a program that never uses them. The imports below are the one list
# of where each name lives: type checkers read them, and __getattr__ reads them too.
if TYPE_CHECKING:
    __version__: str
    from ._checks.invariants import check_state, state_problems
    from ._io.archive import validate_files, validate_many
    from ._io.jsonio import MAX_RECORD_BYTES
    from ._io.records import (
        MAX_DECISIONS,
        MAX_METADATA_DEPTH,
        RECORD_VERSION,
        RECORD_VERSIONS,
        GameRecord,
    )
    from ._io.seats import InformationState, information_state, redact, resample
    from ._io.snapshot import SNAPSHOT_VERSION, state_from_json, state_to_json
    from ._io.validation import ClaimDifference, ValidationReport, validate
    from ._replay.position import position
    from ._replay.replay import Decision, Playthrough, Refusal, Visitor, play_random, replay
    from ._rules.actions import (
        Action,
        AddToHorde,
        Checkpoint,
        ChooseFirstPlayer,
        ChooseTribe,
        EmptyHorde,
        Keep,
        LayTokens,
        Pass,
        Place,
        PlayBand,
        Recruit,
        RestShown,
        Reveal,
        StopChain,
        TakeTroll,
        WizardDraw,
    )
    from ._rules.components import (
        DRAGON,
        HIDDEN,
        Card,
        Colour,
        Dragon,
        Kingdom,
        Ruleset,
        Tribe,
    )
    from ._rules.decisions import PendingDecision
    from ._rules.editions import FIRST_EDITION, default_ruleset
    from ._rules.engine import (
        CHANCE,
        ChanceNode,
        Step,
        apply,
        chance_outcomes,
        end_age_now,
        glory,
        is_chance,
        is_terminal,
        legal_actions,
        outcome,
        pending_decision,
        sample,
        sample_outcome,
        score_now,
        step,
        to_move,
        winners,
    )
    from ._rules.events import (
        EVENT_TYPES,
        AgeBegan,
        AgeEnded,
        AgeScored,
        AreaScored,
        BandPlayed,
        BandScored,
        CardDrawn,
        CardKept,
        ChainOffered,
        ChainStopped,
        CheckpointDeclined,
        CheckpointsLost,
        DeckSplit,
        DragonRevealed,
        Event,
        FirstPlayer,
        GameEnded,
        GiantScored,
        GiantTokenMissed,
        GiantTokenTaken,
        HandDiscarded,
        HordeBlocked,
        HordeDeclined,
        HordeEmptied,
        HordeKept,
        HordeMarkerAdded,
        KeepingDone,
        MarkerPlaced,
        MerfolkMoved,
        Passed,
        PlacementDeclined,
        PlacementTest,
        Prize,
        Recruited,
        RestToRow,
        TieGroup,
        TokensLaid,
        TribeChosen,
        TribesInPlay,
        TrollDeclined,
        TrollTokenTaken,
        WizardsDraw,
    )
    from ._rules.notation import parse_action
    from ._rules.options import MerfolkBoard, Options
    from ._rules.scoring import AgeScore
    from ._rules.setup import new_game
    from ._rules.state import AgeSummary, Band, DecisionKind, GameState, PlayerState
    from ._seat.observation import Observation, SeatView, observation
    from ._text.i18n import LANGUAGES, LanguageError, translate
    from ._text.narration import narrate


def card(code: str) -> Card:
    """The first-edition card kind written ``code`` (``"ELF-red"``, ``"SKE"``).

    >>> from ethnos_rules import card
    >>> card("elf-RED")
    Card('ELF-red')

    Raises:
        MalformedActionError: (rule ``NOTATION``) for text that names no card.
    """
    from ._rules.editions import FIRST_EDITION
    from ._rules.words import given

    if not isinstance(code, str):
        raise MalformedActionError("NOTATION", f"a card is written as text, not {given(code)}")
    try:
        return FIRST_EDITION.card(code)
    except KeyError as err:
        raise MalformedActionError("NOTATION", err.args[0], code) from None


# For a type checker the package's names are the imports above (a misspelt name is an error);
# at run time a name not yet imported is imported here.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """A public name, imported from its module when first asked for (then kept, so asked only
        once); ``__version__``, the installed package's version, read from its metadata
        (importlib.metadata costs a fifth of the import, which a worker process or a bot's
        start-up need not pay)."""
        if name == "__version__":
            value: Any = _version()
        else:
            home = _homes().get(name)
            if home is None:
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
            value = getattr(importlib.import_module(home, __name__), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(__all__))


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ethnos-rules")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


_HOMES: dict[str, str] = {}


def _homes() -> dict[str, str]:
    """Each lazily imported name's module, read once from the ``if TYPE_CHECKING:`` imports of
    this file (a parse of a millisecond or two, at the first name asked for)."""
    if not _HOMES:
        import ast

        with open(__file__, encoding="utf-8") as source:
            tree = ast.parse(source.read())
        block = next(
            node
            for node in tree.body
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        )
        for node in block.body:
            if not isinstance(node, ast.ImportFrom):
                continue
            for alias in node.names:
                _HOMES[alias.asname or alias.name] = "." + (node.module or "")
    return _HOMES


__all__ = [
    "CHANCE",
    "DRAGON",
    "EVENT_TYPES",
    "FIRST_EDITION",
    "HIDDEN",
    "LANGUAGES",
    "MAX_DECISIONS",
    "MAX_METADATA_DEPTH",
    "MAX_RECORD_BYTES",
    "RECORD_VERSION",
    "RECORD_VERSIONS",
    "SNAPSHOT_VERSION",
    "Action",
    "AddToHorde",
    "AgeBegan",
    "AgeEnded",
    "AgeScore",
    "AgeScored",
    "AgeSummary",
    "AreaScored",
    "Band",
    "BandPlayed",
    "BandScored",
    "Card",
    "CardDrawn",
    "CardKept",
    "ChainOffered",
    "ChainStopped",
    "ChanceNode",
    "Checkpoint",
    "CheckpointDeclined",
    "CheckpointsLost",
    "ChooseFirstPlayer",
    "ChooseTribe",
    "ClaimDifference",
    "Colour",
    "Decision",
    "DecisionKind",
    "DeckSplit",
    "Dragon",
    "DragonRevealed",
    "EmptyHorde",
    "Event",
    "FirstPlayer",
    "GameEnded",
    "GameOverError",
    "GameRecord",
    "GameState",
    "GiantScored",
    "GiantTokenMissed",
    "GiantTokenTaken",
    "HandDiscarded",
    "HiddenCardError",
    "HordeBlocked",
    "HordeDeclined",
    "HordeEmptied",
    "HordeKept",
    "HordeMarkerAdded",
    "IllegalActionError",
    "ImpossibleOutcomeError",
    "InformationState",
    "InvalidStateError",
    "Keep",
    "KeepingDone",
    "Kingdom",
    "LanguageError",
    "LayTokens",
    "MalformedActionError",
    "MarkerPlaced",
    "MerfolkBoard",
    "MerfolkMoved",
    "Observation",
    "Options",
    "Pass",
    "Passed",
    "PendingDecision",
    "Place",
    "PlacementDeclined",
    "PlacementTest",
    "PlayBand",
    "PlayerState",
    "Playthrough",
    "Prize",
    "RecordError",
    "Recruit",
    "Recruited",
    "Refusal",
    "RestShown",
    "RestToRow",
    "Reveal",
    "RulesError",
    "Ruleset",
    "SeatView",
    "SetupError",
    "Step",
    "StopChain",
    "TakeTroll",
    "TieGroup",
    "TokensLaid",
    "Tribe",
    "TribeChosen",
    "TribesInPlay",
    "TrollDeclined",
    "TrollTokenTaken",
    "ValidationReport",
    "Visitor",
    "WizardDraw",
    "WizardsDraw",
    "WrongDecisionError",
    "__version__",
    "apply",
    "card",
    "chance_outcomes",
    "check_state",
    "default_ruleset",
    "end_age_now",
    "glory",
    "information_state",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "narrate",
    "new_game",
    "observation",
    "outcome",
    "parse_action",
    "pending_decision",
    "play_random",
    "position",
    "redact",
    "replay",
    "resample",
    "sample",
    "sample_outcome",
    "score_now",
    "state_from_json",
    "state_problems",
    "state_to_json",
    "step",
    "to_move",
    "translate",
    "validate",
    "validate_files",
    "validate_many",
    "winners",
]

# The public classes are shown where users import them from (``ethnos_rules.IllegalActionError``
# in tracebacks and docs), as python-chess does, not under their private modules.
for _name in (
    "RulesError",
    "MalformedActionError",
    "WrongDecisionError",
    "GameOverError",
    "IllegalActionError",
    "ImpossibleOutcomeError",
    "SetupError",
    "InvalidStateError",
    "RecordError",
):
    globals()[_name].__module__ = __name__
del _name
