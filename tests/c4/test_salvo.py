"""# C4 Unit Ranged Attack (its five steps), # C4 Damage and # C4 Combat (the dice split)."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.c4.salvo import (
    Contact,
    Target,
    default_range_bands,
    even_shares,
    load_range_bands,
    max_eliminations,
    remove_losses,
    resolve_combat,
    resolve_salvo,
    shot_difficulty,
    split_dice,
    unit_resilience,
)
from confrontation.dice import ScriptedRoller


def line(*healths: int) -> list[Target]:
    """Targets f0, f1, … at 1, 2, … cm from the marksmen's leader."""
    return [Target(f"f{i}", h, float(i + 1)) for i, h in enumerate(healths)]


# --- # C4 Unit Ranged Attack > Removal of the losses --------------------------------------------


def test_nearest_fighters_are_eliminated_first() -> None:
    targets = [Target("far", 1, 9.0), Target("near", 1, 2.0), Target("mid", 1, 5.0)]
    losses = remove_losses(targets, damage=2, cap=3)
    assert losses.eliminated == ("near", "mid")
    assert losses.wounds == () and losses.lost == 0


def test_as_many_fighters_as_possible_before_the_nearest() -> None:
    # 3 points: the nearest (3 HP) alone, or the two others (1 + 2): as many as possible wins.
    losses = remove_losses(line(3, 1, 2), damage=3, cap=5)
    assert losses.eliminated == ("f1", "f2")


def test_of_the_largest_sets_the_nearest_one() -> None:
    # 4 points, two eliminations at most: f0 (2) + f1 (2) and f0 + f3 (1) both fit: f0 and f1.
    losses = remove_losses(line(2, 2, 3, 1), damage=4, cap=5)
    assert losses.eliminated == ("f0", "f1")


@pytest.mark.rule("C4-REMOVAL-OF-THE-LOSSES")
def test_no_more_eliminated_than_weapons_shot() -> None:
    # "a salvo cannot eliminate more targets than there were weapons shot"
    losses = remove_losses(line(1, 1, 1, 1, 1), damage=5, cap=2)
    assert losses.eliminated == ("f0", "f1")
    assert losses.wounds == () and losses.lost == 3  # one-HP fighters cannot be wounded


def test_left_over_points_wound_the_nearest_survivors() -> None:
    # # C4 Damage: each point takes away a health point; 5 points on 2-HP fighters, cap 2.
    losses = remove_losses(line(2, 2, 2, 2), damage=5, cap=3)
    assert losses.eliminated == ("f0", "f1")
    assert losses.wounds == (("f2", 1),) and losses.lost == 0
    capped = remove_losses(line(2, 2, 2, 2), damage=7, cap=2)
    assert capped.wounds == (("f2", 1), ("f3", 1)) and capped.lost == 1


def test_equal_distances_keep_the_callers_order() -> None:
    targets = [Target("b", 1, 3.0), Target("a", 1, 3.0)]
    assert remove_losses(targets, 1, 2).eliminated == ("b",)


def test_bad_removal_input() -> None:
    with pytest.raises(ValueError):
        remove_losses(line(1), -1, 1)
    with pytest.raises(ValueError, match="already eliminated"):
        remove_losses([Target("x", 0, 1.0)], 1, 1)


targets_strategy = st.lists(
    st.tuples(st.integers(1, 4), st.integers(0, 6)), min_size=0, max_size=7
).map(lambda rows: [Target(f"f{i}", h, float(d)) for i, (h, d) in enumerate(rows)])


@given(targets_strategy, st.integers(0, 20), st.integers(0, 8))
def test_removal_invariants(targets: list[Target], damage: int, cap: int) -> None:
    losses = remove_losses(targets, damage, cap)
    health = {t.fighter: t.health for t in targets}
    gone = losses.eliminated
    assert len(set(gone)) == len(gone) <= cap
    # Every damage point is accounted for: eliminations, wounds, points lost.
    spent = sum(health[f] for f in gone) + sum(p for _, p in losses.wounds)
    assert spent + losses.lost == damage and losses.lost >= 0
    # A wound never eliminates: it leaves at least one health point.
    for fighter, points in losses.wounds:
        assert fighter not in gone and 1 <= points < health[fighter]
    # As many as possible (brute force over every subset) …
    best = max(
        (
            len(c)
            for r in range(len(targets) + 1)
            for c in itertools.combinations(targets, r)
            if len(c) <= cap and sum(t.health for t in c) <= damage
        ),
        default=0,
    )
    assert len(gone) == best == max_eliminations(list(health.values()), damage, cap)
    # … and of those sets, the nearest: compared fighter by fighter, nearest first.
    order = sorted(targets, key=lambda t: t.distance)
    rank = {t.fighter: i for i, t in enumerate(order)}
    feasible = [
        sorted(rank[t.fighter] for t in c)
        for c in itertools.combinations(targets, best)
        if sum(t.health for t in c) <= damage
    ]
    assert sorted(rank[f] for f in gone) == min(feasible)
    # Points are lost only when no survivor can take one more without being eliminated.
    if losses.lost:
        wounded = dict(losses.wounds)
        for t in targets:
            if t.fighter not in gone:
                assert wounded.get(t.fighter, 0) == t.health - 1


# --- a whole salvo ------------------------------------------------------------------------------


@pytest.mark.rule("C4-RANGED-ATTACK-TEST", "C4-STRENGTH-TEST")
def test_salvo_rolls_dice_times_marksmen_then_one_die_per_hit() -> None:
    # 3 marksmen × 2 dice, Ranged attack 4 against range 4 (4+): 4, 5, 1, 6→2, 3, 4 → 4 hits.
    # Strength 5 against RES 3 (3+): 3, 2, 6→5, 1 → 3 damage points on 1-HP fighters.
    roller = ScriptedRoller([4, 5, 1, 6, 2, 3, 4, 3, 2, 6, 5, 1])
    result = resolve_salvo(
        roller,
        marksmen=3,
        dice=2,
        ranged_attack=4,
        difficulty=4,
        strength=5,
        resilience=3,
        targets=line(1, 1, 1, 1, 1),
    )
    assert len(result.attack.chains) == 6
    assert result.hits == 4
    assert len(result.strength.chains) == 4
    assert result.damage == 3
    assert result.losses.eliminated == ("f0", "f1", "f2")
    assert roller.remaining == 0


def test_more_hits_than_dice_but_no_more_eliminated_than_weapons() -> None:
    # One marksman, one die: 6, 6, 4 → 3 hits (CLARIFICATIONS §7); three strength dice at 4+:
    # 6 then 3, 5, 5 → 3 damage points, yet one weapon shot eliminates one fighter.
    roller = ScriptedRoller([6, 6, 4, 6, 3, 5, 5])
    result = resolve_salvo(
        roller,
        marksmen=1,
        dice=1,
        ranged_attack=4,
        difficulty=4,
        strength=4,
        resilience=4,
        targets=line(1, 1, 1),
    )
    assert result.hits == 3
    assert result.damage == 3
    assert result.losses.eliminated == ("f0",)
    assert result.losses.lost == 2


def test_no_hit_no_strength_die() -> None:
    roller = ScriptedRoller([1, 2])
    result = resolve_salvo(
        roller,
        marksmen=2,
        dice=1,
        ranged_attack=3,
        difficulty=3,
        strength=9,
        resilience=1,
        targets=line(1),
    )
    assert result.hits == 0 and result.strength.chains == () and result.losses.eliminated == ()


def test_a_salvo_needs_a_marksman() -> None:
    with pytest.raises(ValueError):
        resolve_salvo(
            ScriptedRoller([]),
            marksmen=0,
            dice=1,
            ranged_attack=3,
            difficulty=3,
            strength=3,
            resilience=3,
            targets=line(1),
        )


def test_unit_resilience() -> None:
    assert unit_resilience([3, 3], [5]) == 3  # the standard fighters'
    assert unit_resilience([], [4, 6]) == 6  # only specials left: the highest
    with pytest.raises(ValueError):
        unit_resilience([], [])


# --- # C4 Measuring Distance / Measuring the range: the tape ----------------------------------


def test_bundled_tape() -> None:
    tape = default_range_bands()
    assert [b.name for b in tape.bands] == ["short", "medium", "long", "extreme"]
    assert tape.difficulty(0) == 2
    assert tape.difficulty(15) == 2  # on the boundary: partially within → the shorter band
    assert tape.difficulty(15.01) == 4
    assert tape.difficulty(60) == 8
    assert tape.difficulty(60.5) is None  # beyond the tape: no shot
    with pytest.raises(ValueError):
        tape.band(-1)


def test_a_weapons_reach_stops_it_before_the_tapes_end() -> None:
    assert shot_difficulty(40) == 6
    assert shot_difficulty(40, reach_cm=45) == 6
    assert shot_difficulty(45.5, reach_cm=45) is None
    assert shot_difficulty(70) is None


@given(st.floats(0, 200), st.floats(0, 200))
def test_further_is_never_easier(a: float, b: float) -> None:
    tape = default_range_bands()
    near, far = sorted((a, b))
    d_near, d_far = tape.difficulty(near), tape.difficulty(far)
    if d_far is not None:
        assert d_near is not None and d_near <= d_far


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[[band]]\nname='a'\nup_to_cm=10\ndifficulty=2\n[[band]]\nname='b'\nup_to_cm=5\n"
            "difficulty=4\n",
            "reach further",
        ),
        (
            "[[band]]\nname='a'\nup_to_cm=10\ndifficulty=4\n[[band]]\nname='b'\nup_to_cm=20\n"
            "difficulty=2\n",
            "easier",
        ),
        (
            "[[band]]\nname='a'\nup_to_cm=10\ndifficulty=2\n[[band]]\nname='a'\nup_to_cm=20\n"
            "difficulty=4\n",
            "share a name",
        ),
        ("[[band]]\nname='a'\nup_to_cm=-1\ndifficulty=2\n", "greater than 0"),
        ("[[band]]\nname='a'\nup_to_cm=10\n", "missing key"),
        ("band = 3\n", "expected an array"),
    ],
)
def test_bad_tapes_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tape.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LoadError) as error:
        load_range_bands(path)
    assert message in str(error.value) and "\n" not in str(error.value)


band = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=4) | st.integers(),
        "up_to_cm": st.integers(-5, 90) | st.floats(allow_nan=False, allow_infinity=False),
        "difficulty": st.integers(-30, 50) | st.text(max_size=1),
        "other": st.booleans(),
    },
)


@given(st.lists(band, max_size=5))
def test_any_tape_loads_or_is_one_line_error(bands: list[dict[str, object]]) -> None:
    lines = []
    for entry in bands:
        lines.append("[[band]]")
        for key, value in entry.items():
            shown = str(value).lower() if isinstance(value, bool) else repr(value)
            if isinstance(value, str):
                shown = '"' + value.encode("unicode_escape").decode().replace('"', '\\"') + '"'
            lines.append(f"{key} = {shown}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tape.toml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            tape = load_range_bands(path)
        except LoadError as error:
            assert "\n" not in str(error)
            return
    ends = [b.up_to_cm for b in tape.bands]
    assert ends == sorted(ends) and len(set(ends)) == len(ends)


# --- # C4 Combat: the dice split and one combat ---------------------------------------------


def test_fighters_split_their_dice_between_the_profiles_in_contact() -> None:
    contacts = [
        Contact("a1", "templar", 2, ("clone",)),
        Contact("a2", "templar", 3, ("clone", "biopsist")),
        Contact("a3", "preceptor", 2, ("biopsist",)),
        Contact("a4", "templar", 2, ()),  # in contact with nobody: does not fight
    ]
    split = split_dice(contacts)
    assert split == {
        ("templar", "clone"): 4,
        ("templar", "biopsist"): 1,
        ("preceptor", "biopsist"): 2,
    }
    chosen = split_dice(contacts, {"a2": {"clone": 0, "biopsist": 3}})
    assert chosen[("templar", "clone")] == 2 and chosen[("templar", "biopsist")] == 3


@pytest.mark.parametrize(
    ("shares", "message"),
    [
        ({"a1": {"clone": 1}}, "exactly"),
        ({"a1": {"clone": 1, "rat": 1}}, "not in contact"),
        ({"a1": {"clone": 3, "biopsist": -1}}, "cannot give"),
        ({"zz": {"clone": 2}}, "not an attacking fighter"),
    ],
)
def test_illegal_splits(shares: dict[str, dict[str, int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        split_dice([Contact("a1", "templar", 2, ("clone", "biopsist"))], shares)


@given(st.integers(0, 12), st.lists(st.sampled_from("abcde"), min_size=1, max_size=5, unique=True))
def test_even_split_conserves_dice(dice: int, profiles: list[str]) -> None:
    shares = even_shares(dice, profiles)
    assert sum(shares.values()) == dice
    assert max(shares.values()) - min(shares.values()) <= 1
    assert list(shares.values()) == sorted(shares.values(), reverse=True)  # remainder first


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["x", "y"]),
            st.integers(0, 6),
            st.lists(st.sampled_from(["p", "q", "r"]), max_size=3),
        ),
        max_size=6,
    )
)
def test_split_dice_conserves_the_dice_of_fighters_in_contact(
    rows: list[tuple[str, int, list[str]]],
) -> None:
    contacts = [Contact(f"f{i}", prof, n, tuple(e)) for i, (prof, n, e) in enumerate(rows)]
    split = split_dice(contacts)
    assert sum(split.values()) == sum(c.dice for c in contacts if c.enemy_profiles)
    for attacker, defender in split:
        assert any(c.profile == attacker and defender in c.enemy_profiles for c in contacts)


def test_one_combat() -> None:
    # 4 dice, ATT 4 against DEF 3 (column 1 → 4+): 5, 4, 2, 1 → 2 hits; STR 5 against RES 5
    # (4+): 4, 6, 3 → 2 damage points on 2-HP defenders: the nearest one eliminated.
    roller = ScriptedRoller([5, 4, 2, 1, 4, 6, 3])
    result = resolve_combat(
        roller, dice=4, attack=4, defense=3, strength=5, resilience=5, targets=line(2, 2)
    )
    assert (result.hits, result.damage) == (2, 2)
    assert result.losses.eliminated == ("f0",)
    capped = resolve_combat(
        ScriptedRoller([5, 5, 5, 5, 5, 5]),
        dice=3,
        attack=4,
        defense=3,
        strength=5,
        resilience=5,
        targets=line(1, 1, 1),
        cap=1,
    )
    assert capped.losses.eliminated == ("f0",)
    with pytest.raises(ValueError):
        resolve_combat(
            ScriptedRoller([]), dice=-1, attack=1, defense=1, strength=1, resilience=1, targets=[]
        )
