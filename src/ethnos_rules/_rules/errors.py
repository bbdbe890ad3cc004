"""The exception hierarchy: every refusal is a :class:`RulesError` naming the rule it applies.

python-chess style: a malformed action is told apart from a well-formed one that is illegal.

- :class:`MalformedActionError` — the text or object is not an action at all.
- :class:`WrongDecisionError` — a well-formed action of the wrong kind for this state: a player's
  action at a chance node, a chance outcome where a player decides, a tribe's follow-up when none
  is pending.
- :class:`GameOverError` — the game has ended; nothing more can be applied.
- :class:`IllegalActionError` — the right kind of action, forbidden by the named rule.
- :class:`ImpossibleOutcomeError` — a chance outcome whose probability is 0 (CHANCE).
- :class:`SetupError` — arguments of :func:`~ethnos_rules.new_game` that break a SETUP rule.
- :class:`InvalidStateError` — a state (a snapshot or a built position) that no legal game can
  reach; the checks that find its problems are :mod:`ethnos_rules._checks.invariants`.
- :class:`HiddenCardError` — a record kept at one seat names a card that seat could not see, or
  writes ``?`` for one it saw.
"""

from __future__ import annotations

from typing import Any

from .words import given, shortened


class RulesError(ValueError):
    """An action or setup refused by the rules.

    Attributes:
        rule: The id of the rule that refuses it (e.g. ``"BAND-2"``).
        reason: A plain-English explanation.
        action: The refused action (or text), when there is one.
    """

    def __init__(self, rule: str, reason: str, action: Any = None) -> None:
        self.rule = rule
        self.reason = reason
        self.action = action
        where = f" [{_text(action)}]" if action is not None else ""
        super().__init__(f"{rule}: {reason}{where}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.rule, self.reason, self.action))


def _text(action: Any) -> str:
    """The action's notation, or its repr when a malformed field cannot be written; at most
    :data:`~ethnos_rules._rules.words.GIVEN_LENGTH` characters (the whole is :attr:`action`)."""
    try:
        return shortened(str(action))
    except Exception:
        return given(action)


class MalformedActionError(RulesError):
    """The input is not a well-formed action (rule ``NOTATION``)."""


class WrongDecisionError(RulesError):
    """A well-formed action of a kind that is not the decision pending in this state."""


class GameOverError(RulesError):
    """The game is over; no action applies (rule ``GAME-1``)."""


class IllegalActionError(RulesError):
    """The pending kind of action, but forbidden by the rule named in :attr:`rule`."""


class ImpossibleOutcomeError(IllegalActionError):
    """A chance outcome that cannot happen in this state (probability 0)."""


class SetupError(RulesError):
    """Arguments of :func:`~ethnos_rules.new_game` or :class:`~ethnos_rules.Options` that break a
    setup rule."""


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


class HiddenCardError(WrongDecisionError):
    """A record kept at one seat names a card that seat could not see (another player's draw),
    or writes ``?`` for a card it saw (its own draw, a card laid face up in the row); or a game
    state, which holds every card, is given a ``?`` or what one seat was shown."""
