"""The CLI grammar: argv to tool, typed arguments and global options; help from the table."""

from __future__ import annotations

import pytest
from hub_tables import make_table
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.hub import argv
from tabsteward.bridge.tools import registry

TABLE = make_table()


def parse(*words: str) -> argv.Parsed:
    return argv.parse(list(words), TABLE)


def refused(*words: str) -> str:
    with pytest.raises(UsageError) as info:
        parse(*words)
    assert "nothing was run" in info.value.message
    return info.value.message


def test_positional_and_flags_become_typed_arguments() -> None:
    p = parse("echo", "hi", "--times", "3", "--ratio=0.5", "-l", "--mode", "fancy")
    assert p.tool == "echo"
    assert p.args == {"text": "hi", "times": 3, "ratio": 0.5, "loud": True, "mode": "fancy"}


def test_short_option_takes_its_value() -> None:
    assert parse("echo", "hi", "-n", "4").args["times"] == 4


def test_global_options_are_accepted_anywhere() -> None:
    p = parse("--json", "echo", "--agent", "ci", "hi", "--tab=t3")
    assert p.options == argv.Options(json=True, agent="ci", tab="t3", help=False)
    assert p.args == {"text": "hi", "tab": "t3"}


def test_tab_option_reaches_every_tool_as_its_tab_argument() -> None:
    assert parse("snapshot", "--tab", "t2").args == {"tab": "t2"}


def test_double_dash_makes_the_rest_positional() -> None:
    p = parse("type", "@1", "--", "--json", "-l")
    assert p.args == {"target": "@1", "words": ["--json", "-l"]}
    assert p.options.json is False
    assert argv.wants_json(["type", "@1", "--", "--json"]) is False


def test_negative_numbers_are_values_not_options() -> None:
    assert parse("echo", "-5").args == {"text": "-5"}
    assert parse("echo", "x", "--ratio", "-0.25").args["ratio"] == -0.25


def test_positional_list_takes_every_remaining_word() -> None:
    assert parse("type", "@2", "a", "b", "c").args == {"target": "@2", "words": ["a", "b", "c"]}


def test_list_flag_may_repeat() -> None:
    assert parse("echo", "x", "--tags", "a", "--tags", "b").args["tags"] == ["a", "b"]


def test_bool_flag_can_be_negated() -> None:
    assert parse("echo", "x", "--no-loud").args["loud"] is False


def test_unknown_tool_suggests_a_close_name() -> None:
    assert "did you mean snapshot" in refused("snapsot")


def test_no_tool_is_refused() -> None:
    assert "no tool given" in refused()
    assert "no tool given" in refused("--json")


def test_missing_required_argument_is_named_with_usage() -> None:
    message = refused("echo")
    assert "echo needs TEXT" in message
    assert "usage: tabsteward echo TEXT" in message


def test_extra_positional_argument_is_refused() -> None:
    assert "extra argument 'b'" in refused("echo", "a", "b")
    assert "takes no positional" in refused("snapshot", "x")


def test_bad_int_is_refused() -> None:
    assert "--times must be a whole number, not 'many'" in refused("echo", "x", "--times",
                                                                   "many")


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_non_finite_number_is_refused(value: str) -> None:
    assert "finite" in refused("echo", "x", "--ratio", value)


def test_value_outside_choices_is_refused() -> None:
    assert "must be one of plain, fancy, not 'wild'" in refused("echo", "x", "--mode", "wild")


def test_unknown_option_suggests_a_close_one() -> None:
    assert "no option --tims (did you mean --times" in refused("echo", "x", "--tims", "2")


def test_option_without_its_value_is_refused() -> None:
    assert "--times needs a value" in refused("echo", "x", "--times")
    assert "--agent needs a value" in refused("echo", "x", "--agent")


def test_switch_given_a_value_is_refused() -> None:
    assert "is a switch" in refused("echo", "x", "--loud=yes")


def test_option_given_twice_is_refused() -> None:
    assert "--times twice" in refused("echo", "x", "-n", "1", "--times", "2")


def test_help_skips_argument_checks() -> None:
    assert parse("echo", "--help").options.help
    assert parse("-h").tool is None


def test_main_help_lists_every_tool_with_its_summary() -> None:
    text = argv.main_help(TABLE)
    for tool in TABLE.values():
        assert f"{tool.name}" in text
        assert tool.summary in text
    assert "--agent NAME" in text


def test_tool_help_shows_usage_and_every_param() -> None:
    text = argv.tool_help(TABLE["echo"])
    assert text.startswith("usage: tabsteward echo TEXT [-n TIMES]")
    for needle in ("-l, --loud", "--mode {plain,fancy}", "--tags TAGS", "(default: 1)",
                   "(required)"):
        assert needle in text


def test_press_takes_a_target_before_its_keys_when_both_are_given() -> None:
    tools = registry.table()
    assert argv.parse(["press", "@13", "ArrowRight"], tools).args == {
        "target": "@13", "keys": "ArrowRight"}
    assert argv.parse(["press", "Enter"], tools).args == {"keys": "Enter"}
    assert argv.parse(["press", "Enter", "--target", "@2"], tools).args == {
        "keys": "Enter", "target": "@2"}
    with pytest.raises(UsageError, match=r"extra argument 'c'; nothing was run; usage: "
                                         r"tabsteward press \[TARGET\] KEYS"):
        argv.parse(["press", "a", "b", "c"], tools)
    with pytest.raises(UsageError, match="press needs KEYS; nothing was run"):
        argv.parse(["press", "--target", "@2"], tools)
