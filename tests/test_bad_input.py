"""Values no message can repeat as they are (an integer of over 4,300 digits, which Python
refuses to write; a value whose repr fails; a very long one) are refused by the library's own
errors, each message bounded, wherever a caller can give them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ethnos_rules import (
    Options,
    RulesError,
    apply,
    legal_actions,
    new_game,
    observation,
    parse_action,
    position,
)
from ethnos_rules._rules.words import GIVEN_LENGTH, given
from ethnos_rules.agents import EncodedState, ObservationWriter, observation_tensor
from helpers import SIX_TRIBES

HUGE = 10**5000


class Unshowable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def _calls(value: Any) -> dict[str, Callable[[], object]]:
    state = new_game(3, tribes=SIX_TRIBES[:5])
    return {
        "new_game players": lambda: new_game(value),
        "new_game tribes": lambda: new_game(3, tribes=[value, *SIX_TRIBES[:4]]),
        "position to_move": lambda: position(3, SIX_TRIBES[:5], to_move=value),
        "position hands": lambda: position(3, SIX_TRIBES[:5], hands={0: value}),
        "observation seat": lambda: observation(state, value),
        "apply seat": lambda: apply(state, legal_actions(state)[0], seat=value),
        "apply_id": lambda: EncodedState.of(state).apply_id(value),
        "band begun": lambda: EncodedState(state, [value]),
        "writer seat": lambda: ObservationWriter(value, 3),
        "tensor seat": lambda: observation_tensor(state, value),
        "options": lambda: Options(elves_keep=value),
    }


@pytest.mark.parametrize(
    "value",
    [HUGE, -HUGE, Unshowable(), "x" * 10_000, [HUGE]],
    ids=["huge", "minus-huge", "unshowable", "long-text", "list-of-huge"],
)
@pytest.mark.parametrize("call", list(_calls(0)))
def test_a_value_no_message_can_repeat_is_refused_by_a_rule(value: object, call: str) -> None:
    with pytest.raises(RulesError) as info:
        _calls(value)[call]()
    assert len(info.value.reason) < GIVEN_LENGTH + 200


def test_given_repeats_short_values_as_repr() -> None:
    assert given(7) == "7" and given("ELF") == "'ELF'" and given(None) == "None"
    assert given(HUGE) == "an integer of about 5,000 digits"
    assert given(Unshowable()) == "a value of type Unshowable that cannot be shown"
    assert given("x" * 500) == repr("x" * 500)[: GIVEN_LENGTH - 3] + "..."


def test_a_long_action_text_is_refused_with_a_bounded_message() -> None:
    with pytest.raises(RulesError) as info:
        parse_action("recruit " + "x" * 100_000)
    assert len(str(info.value)) < 4 * GIVEN_LENGTH  # the text, once or twice, and why


@pytest.mark.parametrize("field", ["merfolk", "giant", "glory"])
def test_a_number_no_game_comes_near_is_refused_before_it_is_written(field: str) -> None:
    """A position or snapshot with a number over LARGEST_COUNT is refused by one short
    sentence naming the field (an integer of over 4,300 digits cannot even be written)."""
    given: Any = {"merfolk": {0: HUGE}, "giant": (0, HUGE), "glory": {0: 10**7}}[field]
    with pytest.raises(RulesError, match="holds a number over 1,000,000") as info:
        position(3, ["DWA", "ELF", "GIA", "MER", "TRO"], **{field: given})
    assert len(str(info.value)) < 100


def test_pictures_refuse_what_they_do_not_draw() -> None:
    from ethnos_rules import InvalidStateError, svg

    state = new_game(3, tribes=SIX_TRIBES[:5])
    sizes: list[Any] = [0, HUGE, 10**309, 100_001, True, 2.5]
    for size in sizes:
        with pytest.raises(ValueError, match="an integer from 1 to 100,000"):
            svg.board(state, size=size)
    wrong: Any = svg  # called with what its functions do not take
    with pytest.raises(InvalidStateError, match="expected a GameState"):
        wrong.board("a state")
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: wrong.view(state), "a view: expected Observation, not GameState"),
        (lambda: wrong.card("ELF-red"), "a card: expected Card, not str"),
        (lambda: wrong.hand("ELF-red"), "cards are a sequence of Card"),
        (lambda: wrong.band(3), "a band: expected Band, not int"),
    ]
    for call, message in calls:
        with pytest.raises(TypeError, match=message):
            call()


def test_history_tensor_refuses_tokens_and_lengths_that_are_not_its() -> None:
    from ethnos_rules.agents import history_tensor

    bad: list[tuple[Any, int]] = [([HUGE], 10), (["x"], 3)]
    for tokens, length in bad:
        with pytest.raises(ValueError, match="tokens are integers"):
            history_tensor(tokens, length)
    with pytest.raises(ValueError, match="length must be a whole number of tokens, not True"):
        history_tensor([1], True)
    assert list(history_tensor([1, 2], 3)) == [2, 3, 0]
