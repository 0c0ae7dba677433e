"""The shared action codec (ordonnance.core.actioncodec) on a toy game's actions."""

from __future__ import annotations

import attrs
import jsonschema
import pytest

from ordonnance.core.actioncodec import ActionCodec, FieldCodec, int_field, name_field
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError

COLOURS = ("red", "blue")


def _check_square(_instance: object, _attribute: object, value: int) -> None:
    if not 0 <= value < 9:
        raise InvalidArgumentError(f"a square is 0..8, got {value!r}")


def _colour(value: int | str) -> int:
    return COLOURS.index(value) if isinstance(value, str) else value


@attrs.frozen
class Jump:
    square: int = attrs.field(validator=_check_square)
    colour: int = attrs.field(converter=_colour)


@attrs.frozen
class Rest:
    pass


CODEC: ActionCodec[Jump | Rest] = ActionCodec(
    "toy", "A toy action", {"jump": Jump, "rest": Rest}, {"square": int_field(0, 8), "colour": name_field(COLOURS)}
)


def test_actions_round_trip_and_match_the_schema() -> None:
    for action in (Jump(3, 1), Rest()):
        data = CODEC.to_data(action)
        jsonschema.validate(data, CODEC.schema)
        assert CODEC.from_json(CODEC.to_json(action)) == action
    assert CODEC.to_data(Jump(3, 1)) == {"type": "jump", "square": 3, "colour": "blue"}
    assert CODEC.is_action(Rest()) and not CODEC.is_action("rest")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[]", "an action is an object whose type is one of jump, rest, got []"),
        ('{"type": "hop"}', "type is one of jump, rest"),
        ('{"type": "rest", "square": 1}', "unknown keys ['square']"),
        ('{"type": "jump", "square": 1}', "missing keys ['colour']"),
        ('{"type": "jump", "square": true, "colour": "red"}', "square must be an int, got True"),
        ('{"type": "jump", "square": 1, "colour": "Red"}', "colour must be one of red, blue, got 'Red'"),
        ('{"type": "jump", "square": 9, "colour": "red"}', "a square is 0..8, got 9"),
        ('{"type": "rest"' + "}" * 2, "not JSON"),
        ("[" * 5 + "]" * 5, "nested deeper than 4 levels"),
    ],
)
def test_untrusted_json_is_refused_showing_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidArgumentError, match="^invalid toy action JSON: ") as caught:
        CODEC.from_json(text)
    assert reason in str(caught.value)


def test_a_reader_may_raise_its_own_error_and_a_non_action_is_a_type_error() -> None:
    with pytest.raises(KeyError, match="history"):
        CODEC.from_data({"type": "hop"}, lambda message: KeyError(f"history: {message}"))
    with pytest.raises(OrdonnanceTypeError, match="not a toy action: 'jump'"):
        CODEC.to_data("jump")  # type: ignore[arg-type]


def test_field_codecs_encode_and_decode() -> None:
    doubled = FieldCodec({"type": "integer"}, encode=lambda v: v * 2, decode=lambda v: v // 2)
    codec: ActionCodec[Jump] = ActionCodec("toy", "t", {"jump": Jump}, {"square": doubled, "colour": name_field(COLOURS)})
    assert codec.to_data(Jump(4, 0))["square"] == 8
    assert codec.from_data({"type": "jump", "square": 8, "colour": "red"}) == Jump(4, 0)
    assert codec.schema["oneOf"] == [
        {
            "type": "object",
            "properties": {"type": {"const": "jump"}, "square": {"type": "integer"}, "colour": {"enum": ["red", "blue"]}},
            "required": ["type", "square", "colour"],
            "additionalProperties": False,
        }
    ]
