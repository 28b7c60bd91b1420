"""Agent specs ``NAME[:KEY=VALUE[;KEY=VALUE...]]``: values read by the type of the agent's
constructor parameter, and every bad spec is one AgentSpecError line naming agent and key."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.agents import AGENTS, make
from confrontation.agents import spec as spec_module
from confrontation.agents.mcts import MctsAgent
from confrontation.agents.spec import AgentSpecError, agent_options, parse_agent_spec


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(spec_module).failed == 0


def test_a_bare_name_has_no_options_and_keeps_its_spelling() -> None:
    assert parse_agent_spec("greedy") == ("greedy", {})
    assert parse_agent_spec(" Random ") == ("Random", {})
    assert parse_agent_spec("human") == ("human", {})


def test_values_are_read_by_the_type_of_the_constructor_parameter() -> None:
    name, options = parse_agent_spec(
        "mcts:iterations=200;seconds=2.5;rollout=random;kinds=allocate_dice+defend;"
        "tree=no;outside_combat=YES;exploration=0.5;max-steps=40"
    )
    assert name == "mcts"
    assert options == {
        "iterations": 200,
        "seconds": 2.5,
        "rollout": "random",
        "kinds": ["allocate_dice", "defend"],
        "tree": False,
        "outside_combat": True,
        "exploration": 0.5,
        "max_steps": 40,
    }
    assert type(options["iterations"]) is int and type(options["seconds"]) is float


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("1", True), ("Yes", True), ("false", False), ("0", False), ("NO", False)],
)
def test_booleans(text: str, value: bool) -> None:
    assert parse_agent_spec(f"mcts:tree={text}")[1] == {"tree": value}


def test_none_for_a_parameter_that_may_be_none() -> None:
    assert parse_agent_spec("mcts:seconds=none")[1] == {"seconds": None}
    with pytest.raises(AgentSpecError, match="iterations"):
        parse_agent_spec("mcts:iterations=none")


def test_the_parsed_options_reach_the_agent() -> None:
    name, options = parse_agent_spec(
        "mcts:iterations=7;seconds=1.5;kinds=defend;tree=false;announcements=false;width=3;"
        "finale=false;finale_sweeps=4;prune_after=0;win_z=2.5"
    )
    agent = make(name, seed=1, player=0, **options)
    assert isinstance(agent, MctsAgent)
    assert (agent.iterations, agent.seconds, agent.kinds, agent.tree) == (
        7,
        1.5,
        frozenset({"defend"}),
        False,
    )
    assert (agent.announcements, agent.width) == (False, 3)
    assert (agent.finale, agent.finale_sweeps) == (False, 4)
    assert (agent.prune_after, agent.win_z) == (0, 2.5)


def test_the_options_are_the_keyword_only_constructor_parameters() -> None:
    assert set(agent_options("mcts")) == {
        "iterations", "seconds", "rollout", "kinds", "max_steps",
        "exploration", "overrule", "tree", "outside_combat",
        "announcements", "width", "announce_sweeps",
        "finale", "finale_sweeps", "finale_width", "finale_combat", "finale_rounds",
        "finale_finals", "finale_cards", "final_only", "fights", "opponent_tree",
        "prune_after", "prune_z", "tie_after", "win_z",
        "announce_prune_z", "announce_tie_after", "announce_win_z",
        "finale_prune_z", "finale_tie_after", "finale_win_z",
    }  # fmt: skip
    assert agent_options("greedy") == {}
    assert agent_options("random") == {}
    assert set(agent_options("human")) == {"auto", "measure", "map"}  # not its streams


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("chess", ["unknown agent 'chess'", "mcts"]),
        ("chess:iterations=2", ["unknown agent 'chess'"]),
        (":iterations=2", ["no agent name"]),
        ("mcts:depth=3", ["'mcts'", "'depth'", "iterations"]),
        ("greedy:iterations=3", ["'greedy'", "takes no options", "'iterations'"]),
        ("random:seconds=1", ["'random'", "'seconds'"]),
        ("human:stdin=x", ["'human'", "no option 'stdin'", "auto, map, measure"]),
        ("mcts:iterations=many", ["'mcts'", "iterations", "whole number"]),
        ("mcts:iterations=2.5", ["'mcts'", "iterations"]),
        ("mcts:seconds=fast", ["'mcts'", "seconds", "number"]),
        ("mcts:seconds=inf", ["'mcts'", "seconds", "finite"]),
        ("mcts:tree=maybe", ["'mcts'", "tree", "true/false"]),
        ("mcts:rollout=", ["'mcts'", "rollout"]),
        ("mcts:kinds=defend++", ["'mcts'", "kinds"]),
        ("mcts:iterations=0", ["'mcts'", "iterations=0", "1 to 100000"]),
        ("mcts:seconds=1;rollout=smart", ["'mcts'", "rollout='smart'", "refused"]),
        ("mcts:", ["'mcts'", "KEY=VALUE"]),
        ("mcts:iterations", ["'mcts'", "KEY=VALUE", "iterations"]),
        ("mcts:iterations=2;iterations=3", ["'mcts'", "iterations", "twice"]),
    ],
)
def test_each_bad_spec_is_one_line_naming_agent_and_key(text: str, words: list[str]) -> None:
    with pytest.raises(AgentSpecError) as caught:
        parse_agent_spec(text)
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message


MCTS_KEYS = sorted(agent_options("mcts"))
VALUE_TEXT = st.one_of(
    st.sampled_from(["0", "1", "-3", "2", "2.5", "1e9", "nan", "true", "no", "none", "greedy"]),
    st.sampled_from(["random", "allocate_dice+defend", "defend", "", "+", "a;b", "x=y"]),
    st.text(max_size=8),
)


@st.composite
def near_specs(draw: st.DrawFn) -> str:
    """Specs close to valid ones: a known (or unknown) name and known (or odd) keys."""
    name = draw(st.sampled_from([*AGENTS, "MCTS", "chess", ""]))
    if draw(st.booleans()):
        return name
    keys = draw(st.lists(st.sampled_from([*MCTS_KEYS, "depth", ""]), max_size=4))
    items = [f"{key}={draw(VALUE_TEXT)}" for key in keys]
    return f"{name}:{';'.join(items)}"


def _one_line_error_or_valid(text: str) -> None:
    try:
        name, options = parse_agent_spec(text)
    except AgentSpecError as error:
        assert "\n" not in str(error) and str(error)
        return
    make(name, seed=0, player=0, **options)  # what parsed builds


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_fuzzed_text_gives_a_spec_or_one_line_error(text: str) -> None:
    _one_line_error_or_valid(text)


@settings(max_examples=300, deadline=None)
@given(near_specs())
def test_fuzzed_near_specs_give_a_spec_or_one_line_error(text: str) -> None:
    _one_line_error_or_valid(text)
