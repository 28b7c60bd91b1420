"""`odds advise` in one sentence with its assumptions, options that change nothing said so,
plots naming the match-up with worded axes, `odds wound --plot` (issue 26)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from confrontation.cli import app
from confrontation.cli import odds as odds_cli
from confrontation.odds import Fighter, Goal, advise
from confrontation.odds.advise import advice_sentence, assumptions, charge_matters
from confrontation.odds.combat import DefencePolicy
from confrontation.rules.combat import Allocation, Stats

runner = CliRunner()
SAME = Stats(ini=4, att=4, str_=6, def_=4, res=6)


def test_the_sentence_names_the_best_split_policy_and_chance() -> None:
    me = Fighter("me", SAME)
    foe = Fighter("foe", SAME, Allocation(1, 1))
    rows = advise(me, [foe], Goal.SURVIVE)
    best = rows[0]
    sentence = advice_sentence(best, Goal.SURVIVE)
    a, d = best.allocation.attack, best.allocation.defence
    assert sentence.startswith(
        f"Put {a} {'die' if a == 1 else 'dice'} in attack and {d} in defence"
    )
    assert f"{round(float(best.score) * 100)} % to survive" in sentence
    assert sentence.endswith(".")


def test_a_sure_thing_is_not_rounded_into_one() -> None:
    me = Fighter("me", Stats(ini=4, att=9, str_=12, def_=8, res=12))
    foe = Fighter("foe", Stats(ini=1, att=1, str_=1, def_=1, res=3), Allocation(1, 1))
    best = advise(me, [foe], Goal.SURVIVE)[0]
    sentence = advice_sentence(best, Goal.SURVIVE)
    if best.score != 1:
        assert "100 %" not in sentence


def test_assumptions_say_each_enemy_split_and_defence() -> None:
    foe = Fighter("foe", SAME, Allocation(1, 1), DefencePolicy.ALL)
    brute = Fighter("brute", SAME)
    text = assumptions([foe, brute])
    assert "foe puts 1 die in attack and 1 in defence" in text
    assert "every defence die against the first attack" in text
    assert "brute puts every combat die in attack" in text


@pytest.mark.rule("V-B-3")
def test_a_charge_matters_only_when_the_powers_give_a_penalty() -> None:
    small = Fighter("small", SAME, power=1)
    big = Fighter("big", SAME, Allocation(1, 1), power=3)
    assert charge_matters(big, [small], charged=False)  # pressure 3 >= Power 1
    assert not charge_matters(small, [big], charged=False)  # pressure 1 < Power 3
    assert charge_matters(small, [big], charged=True)  # the big one charged the small one


def test_advise_ends_with_the_assumptions_and_the_sentence() -> None:
    result = runner.invoke(
        app,
        ["odds", "advise", "--attacker", "praetorian-guard", "--defender", "dirz-clone"],
        terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-2:]
    assert last[0].startswith("Assumed: ")
    assert last[1].startswith("Put ") and "% to survive." in last[1]


def test_advise_json_carries_the_sentence() -> None:
    result = runner.invoke(
        app,
        ["odds", "advise", "--attacker", "praetorian-guard", "--defender", "dirz-clone", "--json"],
    )
    document = json.loads(result.stdout)
    assert document["advice"].startswith("Put ")
    assert document["assumed"].startswith("Assumed: ")


def test_an_option_that_changes_nothing_says_so() -> None:
    spec = "ini=4,att=4,str=6,def=4,res=6,power=1"
    bigger = "ini=4,att=4,str=6,def=4,res=6,power=3"
    result = runner.invoke(
        app,
        ["odds", "advise", "--attacker", spec, "--defender", bigger, "--charge", "--json"],
    )
    document = json.loads(result.stdout)
    assert any(n.startswith("--charge changes nothing") for n in document["notes"])
    result = runner.invoke(
        app,
        ["odds", "advise", "--attacker", bigger, "--defender", spec, "--charge", "--json"],
    )
    assert json.loads(result.stdout)["notes"] == []


@pytest.fixture
def plots(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    real = odds_cli._plot

    def spy(path: str, title: str, bars: dict[str, float], *args: Any, **kwargs: Any) -> None:
        seen.append({"title": title, "bars": bars, "args": args, "kwargs": kwargs})
        real(path, title, bars, *args, **kwargs)

    monkeypatch.setattr(odds_cli, "_plot", spy)
    return seen


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (
            ["combat", "--attacker", "praetorian-guard", "--defender", "dirz-clone"],
            "praetorian-guard against dirz-clone",
        ),
        (
            ["advise", "--attacker", "praetorian-guard", "--defender", "dirz-clone"],
            "praetorian-guard against dirz-clone",
        ),
        (
            ["attack", "--attacker", "praetorian-guard", "--defender", "dirz-clone"],
            "praetorian-guard attacking dirz-clone",
        ),
        (
            ["shot", "--shooter", "griffin-fusilier", "--target", "dirz-clone", "--distance", "20"],
            "griffin-fusilier shooting at dirz-clone",
        ),
        (["wound", "--str", "6", "--res", "5"], "STR 6 against RES 5"),
    ],
)
def test_plots_name_the_matchup(
    args: list[str], names: str, plots: list[dict[str, Any]], tmp_path: Path
) -> None:
    picture = tmp_path / "p.png"
    result = runner.invoke(app, ["odds", *args, "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    assert picture.stat().st_size > 1000
    assert names in plots[0]["title"]
    assert sum(plots[0]["bars"].values()) > 0


def test_the_wound_plot_sums_to_one(plots: list[dict[str, Any]], tmp_path: Path) -> None:
    runner.invoke(
        app, ["odds", "wound", "--str", "8", "--res", "8", "--plot", str(tmp_path / "w.png")]
    )
    assert sum(plots[0]["bars"].values()) == pytest.approx(1.0)
