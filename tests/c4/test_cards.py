"""Unit cards (# C4 Units, # C4 Cards): the bundled sample cards and the loader's errors."""

from __future__ import annotations

import copy
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.c4.cards import RANKED, Card, Category, Kind, bundled_cards, load_cards
from confrontation.data import data_path


def test_bundled_cards_four_peoples_all_sample() -> None:
    cards = bundled_cards()
    assert {c.people for c in cards.values()} >= {"griffin", "wolf", "lion", "scorpion"}
    assert all(c.sample for c in cards.values())
    for people in ("griffin", "wolf", "lion", "scorpion"):
        mine = [c for c in cards.values() if c.people == people]
        assert any(s.is_incarnate for c in mine for s in c.specials), people


@pytest.mark.rule("C4-CATEGORY-OF-TROOPS", "C4-SPECIAL-FIGHTERS-AND-STANDARD-FIGHTERS", "C4-CARDS")
def test_bundled_cards_cover_the_categories_and_kinds() -> None:
    cards = bundled_cards().values()
    # # C4 Units > Category of troops: five categories.
    assert {c.category for c in cards} == set(Category)
    profiles = [p for c in cards for p in (c.standard, *c.specials)]
    assert {p.kind for p in profiles} == set(Kind)
    assert any(p.ranged for p in profiles)
    assert any(p.fear is not None for p in profiles) and any(p.cou is not None for p in profiles)
    assert any(p.structure is not None for p in profiles)


@pytest.mark.rule("C4-CARDS")
def test_a_card_reads_as_written() -> None:
    card = bundled_cards()["griffin-conscripts"]
    assert card.category is Category.INFANTRY and card.rank == 1
    assert card.standard.kind is Kind.STANDARD and not card.standard.is_special
    sered = card.profile("sered")
    assert sered.is_incarnate and sered.aut == 3 and sered.strategist
    assert sered.health == 3 and card.base(sered) == 25
    assert card.standard.att.dice == 1 and card.standard.att.value == 3
    assert card.standard.weapon_strength() == 3
    templar = bundled_cards()["griffin-templars"].standard
    assert templar.weapon_strength("great sword") == 6
    with pytest.raises(ValueError):
        templar.weapon_strength("spoon")
    with pytest.raises(KeyError):
        card.profile("nobody")
    mantlet = bundled_cards()["griffin-mantlet"]
    assert mantlet.rank is None and mantlet.standard.health == 6  # structure points
    assert mantlet.standard.ranged is not None and mantlet.standard.ranged.reach_cm == 60


@pytest.mark.rule("C4-CATEGORY-OF-TROOPS")
def test_ranks_only_for_infantry_cavalry_creatures() -> None:
    for card in bundled_cards().values():
        assert (card.rank is not None) == (card.category in RANKED)


# --- the loader's errors ----------------------------------------------------------------------


def base_card() -> dict[str, Any]:
    text = data_path("c4/cards/griffin.toml").read_text(encoding="utf-8")
    return copy.deepcopy(tomllib.loads(text)["card"][0])


def dump(value: dict[str, Any]) -> list[str]:
    """A profile's keys as TOML lines (inline tables for ``att``, ``ranged``, ``weapons``)."""
    return [f"{k} = {literal(v)}" for k, v in value.items()]


def literal(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.encode("unicode_escape").decode().replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {literal(x)}" for k, x in v.items()) + "}"
    return repr(v)


def write_cards(folder: Path, *cards: dict[str, Any], name: str = "cards.toml") -> Path:
    path = folder / name
    lines: list[str] = []
    for card in cards:
        # Scalars first, then the standard sub-table, then the specials.
        scalars = {k: v for k, v in card.items() if k not in ("standard", "specials")}
        lines += ["[[card]]", *(f"{k} = {literal(v)}" for k, v in scalars.items())]
        if "standard" in card:
            lines += ["[card.standard]", *dump(card["standard"])]
        for special in card.get("specials", []):
            lines += ["[[card.specials]]", *dump(special)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_writer_round_trips(tmp_path: Path) -> None:
    cards = load_cards(write_cards(tmp_path, base_card()))
    assert cards["griffin-conscripts"] == bundled_cards()["griffin-conscripts"]


def mutate(edit: str) -> dict[str, Any]:
    card = base_card()
    std = card["standard"]
    if edit == "both courage and fear":
        std["fear"] = 3
    elif edit == "neither courage nor fear":
        del std["cou"]
    elif edit == "health and structure":
        std["structure"] = 3
    elif edit == "authority on a standard":
        std["aut"] = 2
    elif edit == "rank on a titan":
        card["category"] = "titan"
    elif edit == "no rank on infantry":
        del card["rank"]
    elif edit == "structure on infantry":
        del std["hp"]
        std["structure"] = 3
    elif edit == "special of kind standard":
        card["specials"][0]["kind"] = "standard"
    elif edit == "special without cost":
        del card["specials"][0]["cost"]
    elif edit == "two profiles one id":
        card["specials"][0]["id"] = "conscript"
    elif edit == "min above max":
        card["min_fighters"] = 20
    elif edit == "unknown category":
        card["category"] = "dragon"
    elif edit == "text for a number":
        std["mov"] = "10"
    elif edit == "unknown key":
        std["luck"] = 2
    elif edit == "ability twice":
        std["abilities"] = ["strategist", "strategist"]
    elif edit == "standard kind":
        std["kind"] = "mystic"
    return card


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ("both courage and fear", "exactly one of 'cou'"),
        ("neither courage nor fear", "exactly one of 'cou'"),
        ("health and structure", "exactly one of 'hp'"),
        ("authority on a standard", "only an Incarnate"),
        ("rank on a titan", "has no rank"),
        ("no rank on infantry", "needs a rank"),
        ("structure on infantry", "only a war machine"),
        ("special of kind standard", "cannot be of kind 'standard'"),
        ("special without cost", "needs a 'cost'"),
        ("two profiles one id", "share an id"),
        ("min above max", "'min_fighters' is above"),
        ("unknown category", "Input should be"),
        ("text for a number", "expected a whole number"),
        ("unknown key", "unknown key"),
        ("ability twice", "listed twice"),
        ("standard kind", "must be of kind 'standard'"),
    ],
)
def test_bad_cards_are_one_line_errors(tmp_path: Path, edit: str, message: str) -> None:
    path = write_cards(tmp_path, mutate(edit))
    with pytest.raises(LoadError) as error:
        load_cards(path)
    text = str(error.value)
    assert message in text, text
    assert "\n" not in text and text.startswith(f"{path}:")


def test_a_card_id_defined_twice_across_files(tmp_path: Path) -> None:
    write_cards(tmp_path, base_card(), name="a.toml")
    write_cards(tmp_path, base_card(), name="b.toml")
    with pytest.raises(LoadError, match="defined twice"):
        load_cards(tmp_path)


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="holds no"):
        load_cards(tmp_path)


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="cannot read"):
        load_cards(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[card]\n", encoding="utf-8")
    with pytest.raises(LoadError, match="invalid TOML"):
        load_cards(bad)


scalar = st.one_of(
    st.integers(-5, 300), st.text(max_size=6), st.booleans(), st.none(), st.just([1, "a"])
)
CARD_KEYS = [*sorted(base_card()), "junk"]
PROFILE_KEYS = [*sorted(base_card()["standard"]), "junk"]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["card", "standard"]), st.sampled_from(PROFILE_KEYS + CARD_KEYS), scalar
        ),
        min_size=1,
        max_size=4,
    )
)
def test_any_mangled_card_loads_or_is_one_line_error(edits: list[tuple[str, str, Any]]) -> None:
    card = base_card()
    for where, key, value in edits:
        target = card if where == "card" else card["standard"]
        if value is None:
            target.pop(key, None)
        elif key not in ("standard", "specials"):
            target[key] = value
    with tempfile.TemporaryDirectory() as folder:
        path = write_cards(Path(folder), card)
        try:
            cards = load_cards(path)
        except LoadError as error:
            assert "\n" not in str(error)
            return
    loaded: Card = next(iter(cards.values()))
    # What loads keeps the card's own rules.
    assert (loaded.rank is not None) == (loaded.category in RANKED)
    assert (loaded.standard.cou is None) != (loaded.standard.fear is None)
    assert loaded.standard.health >= 1
