"""One list per rule of chapter I-D that breaks exactly that rule, and the report names it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from confrontation.armylists.load import load_army
from confrontation.armylists.validate import Report, max_per_card, validate

Writer = Callable[..., Path]

BASE = [("champion-60", 1), ("soldier-10", 3)]  # 90 AP, 4 fighters: valid at 300 AP


def check(path: Path) -> Report:
    return validate(load_army(path))


def rules_broken(report: Report) -> list[str]:
    return [v.rule for v in report.violations]


@pytest.mark.rule("I-D")
def test_the_base_list_is_valid(write_army: Writer) -> None:
    report = check(write_army(BASE))
    assert report.valid and report.violations == []
    assert (report.total_ap, report.fighters, report.champions_ap, report.allies_ap) == (
        90,
        4,
        60,
        0,
    )


@pytest.mark.rule("I-D")
def test_total_above_the_format(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 1), *[("soldier-50", 2)] * 4]))
    assert report.total_ap == 460
    assert rules_broken(report) == ["I-D"]
    assert "460 AP, above the format of 300 AP" in report.violations[0].message


@pytest.mark.rule("I-D-1")
def test_quota_five_fighters_per_hundred_started(write_army: Writer) -> None:
    cards = [("champion-60", 1), *[("soldier-10", 3)] * 5]  # 16 fighters, 210 AP
    report = check(write_army(cards))
    assert rules_broken(report) == ["I-D-1"]
    assert report.violations[0].message.startswith("16 fighters above the quota of 15")
    # One fighter fewer is fine.
    assert check(
        write_army([("champion-60", 1), *[("soldier-10", 3)] * 4, ("soldier-10", 2)])
    ).valid


@pytest.mark.rule("I-D-1")
def test_summoned_fighters_do_not_count_in_the_quota_or_the_total(write_army: Writer) -> None:
    cards = [("champion-60", 1), ("champion-30", 1), *[("soldier-10", 3)] * 6]
    without = check(write_army(cards, points=400))
    assert without.valid and without.fighters == 20 == without.quota
    report = check(write_army([*cards, ("summoned-130", 1)], points=400))  # 130 ≤ 160 AP
    assert report.fighters == 20 and report.total_ap == without.total_ap == 270
    assert report.valid


@pytest.mark.rule("I-D-2")
def test_a_cost_that_cannot_be_computed(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 1, ["needs-aim"]), ("soldier-10", 3)]))
    assert rules_broken(report) == ["I-D-2"]
    assert "AIM" in report.violations[0].message


@pytest.mark.rule("I-D-3")
def test_no_fighter_above_forty_percent(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 1), ("soldier-121", 1)]))
    assert rules_broken(report) == ["I-D-3"]
    assert report.violations[0].message == (
        "soldier-121 is worth 121 AP, above 40 % of 300 AP (120 AP)"
    )


@pytest.mark.rule("I-D-3")
def test_forty_percent_counts_summoned_fighters(write_army: Writer) -> None:
    report = check(write_army([*BASE, ("summoned-130", 1)]))
    assert rules_broken(report) == ["I-D-3"]
    assert report.total_ap == 90


@pytest.mark.rule("I-D-4")
def test_champions_at_least_twenty_percent(write_army: Writer) -> None:
    report = check(write_army([("champion-30", 1), ("soldier-10", 3)]))
    assert rules_broken(report) == ["I-D-4"]
    assert "30 AP, below 20 % of 300 AP (60 AP" in report.violations[0].message


@pytest.mark.rule("I-D-4")
def test_champions_are_unique(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 1), ("champion-60", 1)]))
    assert rules_broken(report) == ["I-D-4"]
    assert "recruited 2 times" in report.violations[0].message


@pytest.mark.rule("I-D-5")
@pytest.mark.parametrize(
    ("profile", "allowed"),
    [("soldier-30", 3), ("soldier-31", 2), ("soldier-50", 2), ("soldier-51", 1)],
)
def test_fighters_per_card_by_strategic_value(
    write_army: Writer, profile: str, allowed: int
) -> None:
    assert check(write_army([("champion-60", 1), (profile, allowed)])).valid
    report = check(write_army([("champion-60", 1), (profile, allowed + 1)]))
    assert rules_broken(report) == ["I-D-5"]
    assert f"at most {allowed}" in report.violations[0].message


@pytest.mark.rule("I-D-5")
def test_the_cards_own_number_wins(write_army: Writer) -> None:
    assert check(write_army([("champion-60", 1), ("soldier-10-x4", 4)])).valid
    report = check(write_army([("champion-60", 1), ("soldier-10-x4", 5)]))
    assert rules_broken(report) == ["I-D-5"]
    assert "card's own number" in report.violations[0].message


@pytest.mark.rule("I-D-5", "I-D-2")
def test_per_card_limit_uses_the_value_with_artifacts(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 1), ("soldier-30", 3, ["art-many"])]))
    # 30 + 2 = 32 AP each: 2 per card (I-D-5); and a soldier has no Artifact/X (I-D-6).
    assert sorted(rules_broken(report)) == ["I-D-5", "I-D-6"]
    report = check(write_army([("champion-60", 1), ("soldier-30", 3, ["equip-3"])]))
    assert rules_broken(report) == ["I-D-5"]  # equipment is not an artifact (I-D-6 note)


@pytest.mark.rule("I-D-5", "I-D-4")
def test_a_champion_has_his_own_card(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 2)]))
    assert sorted(rules_broken(report)) == ["I-D-4", "I-D-5"]


@pytest.mark.rule("I-D-6")
def test_artifact_slots(write_army: Writer) -> None:
    assert check(write_army([("champion-60", 1, ["art-5", "art-6"]), ("soldier-10", 3)])).valid
    report = check(write_army([("champion-60", 1, ["art-5", "art-6", "art-many"])]))
    assert rules_broken(report) == ["I-D-6"]
    assert "3 artifacts but has 'Artifact/2'" in report.violations[0].message


@pytest.mark.rule("I-D-6")
def test_no_artifact_without_the_ability(write_army: Writer) -> None:
    report = check(write_army([*BASE, ("soldier-10", 1, ["art-5"])]))
    assert rules_broken(report) == ["I-D-6"]
    assert "no 'Artifact/X' ability" in report.violations[0].message


@pytest.mark.rule("I-D-6")
def test_equipment_does_not_use_a_slot(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 1, ["art-5", "art-6", "equip-3"])]))
    assert report.valid
    assert report.total_ap == 60 + 5 + 6 + 3


@pytest.mark.rule("I-D-6")
def test_one_copy_of_an_artifact(write_army: Writer) -> None:
    report = check(write_army([("champion-60", 1, ["art-5"]), ("champion-30", 1, ["art-5"])]))
    assert rules_broken(report) == ["I-D-6"]
    assert "2 copies of the artifact Art five" in report.violations[0].message
    # ... unless the artifact says otherwise.
    assert check(
        write_army([("champion-60", 1, ["art-many"]), ("champion-30", 1, ["art-many"])])
    ).valid


@pytest.mark.rule("I-D-6")
def test_artifacts_reserved_for_a_nation(write_army: Writer) -> None:
    cards = [*BASE, ("griffin-champion-40", 1, ["lion-only"])]
    report = check(write_army(cards))
    assert rules_broken(report) == ["I-D-6"]
    assert "reserved for lion" in report.violations[0].message


@pytest.mark.rule("I-D-8")
def test_allies_at_most_thirty_percent(write_army: Writer) -> None:
    ok = check(write_army([*BASE, ("griffin-20", 3), ("griffin-20", 1)]))
    assert ok.valid and ok.allies_ap == 80
    report = check(write_army([*BASE, ("griffin-20", 3), ("griffin-20", 2)]))
    assert report.allies_ap == 100
    assert rules_broken(report) == ["I-D-8"]
    assert "100 AP, above 30 % of 300 AP (90 AP)" in report.violations[0].message


@pytest.mark.rule("I-D-8")
def test_ally_nation_must_be_compatible(write_army: Writer) -> None:
    report = check(write_army([*BASE, ("wolf-10", 1)]))
    assert rules_broken(report) == ["I-D-8"]
    assert "wolf cannot ally with the army's people (lion)" in report.violations[0].message


@pytest.mark.rule("I-D-8")
def test_elementals_join_through_their_ability(write_army: Writer) -> None:
    assert check(write_army([*BASE, ("elemental-ok-10", 1)])).valid
    report = check(write_army([*BASE, ("elemental-10", 1)]))
    assert rules_broken(report) == ["I-D-8"]
    assert "'Elemental/X'" in report.violations[0].message


@pytest.mark.rule("I-D-8", "I-D-4")
def test_allied_champions_do_not_count_towards_the_twenty_percent(write_army: Writer) -> None:
    report = check(write_army([("griffin-champion-40", 1), ("champion-30", 1)]))
    assert report.champions_ap == 30 and report.allies_ap == 40
    assert rules_broken(report) == ["I-D-4"]


@pytest.mark.rule("I-D-5")
def test_max_per_card_of_a_champion_is_one(write_army: Writer) -> None:
    report = check(write_army(BASE))
    champion_line = report.lines[0]
    assert max_per_card(champion_line) == 1
