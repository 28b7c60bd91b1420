"""Companies (# C4 Units, # C4 Playing a game): bundled companies, validation, loader errors."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.c4.cards import bundled_cards
from confrontation.c4.company import (
    Company,
    bundled_companies,
    commander,
    load_company,
    unit_cost,
    validate_company,
)

CARDS = bundled_cards()


def company(*units: dict[str, Any], points: int = 300, people: str = "griffin") -> Company:
    return Company.model_validate(
        {"name": "Test", "people": people, "points": points, "unit": list(units)}
    )


def test_two_bundled_companies_per_people_all_valid() -> None:
    companies = bundled_companies()
    by_people: dict[str, int] = {}
    for name, c in companies.items():
        report = validate_company(c, CARDS)
        assert report.ok, (name, report.errors)
        assert report.cost <= c.points
        by_people[c.people] = by_people.get(c.people, 0) + 1
    assert by_people == {"griffin": 2, "wolf": 2, "lion": 2, "scorpion": 2}


def test_cost_is_per_standard_fighter_plus_specials() -> None:
    unit = company({"card": "griffin-conscripts", "standard": 10, "specials": ["sered"]}).unit[0]
    assert unit_cost(unit, CARDS["griffin-conscripts"]) == 10 * 8 + 95


def test_a_valid_company() -> None:
    report = validate_company(
        company({"card": "griffin-conscripts", "standard": 6, "specials": ["sered"]}), CARDS
    )
    assert report.ok and report.errors == () and report.cost == 48 + 95


@pytest.mark.rule("C4-SPECIAL-FIGHTERS-AND-STANDARD-FIGHTERS")
def test_each_company_includes_an_incarnate() -> None:
    # # C4 Units > Special fighters: "Each company has to include at least one Incarnate."
    report = validate_company(company({"card": "griffin-conscripts", "standard": 6}), CARDS)
    assert report.errors == ("company: no Incarnate (each company includes at least one)",)


def test_points() -> None:
    big = company({"card": "griffin-conscripts", "standard": 12, "specials": ["sered"]})
    assert validate_company(big, CARDS).ok  # 96 + 95 ≤ 300
    report = validate_company(big, CARDS, points=150)
    assert report.errors == ("points: the company costs 191 A.P., 150 allowed",)


@pytest.mark.parametrize(
    ("unit", "error"),
    [
        (
            {"card": "griffin-ghosts", "standard": 4},
            "units[2] (griffin-ghosts): no such card",
        ),
        (
            {"card": "wolf-warriors", "standard": 4},
            "units[2] (wolf-warriors): the card is of the wolf people, the company of griffin",
        ),
        (
            {"card": "griffin-arbalesters", "standard": 11},
            "units[2] (griffin-arbalesters): 11 standard fighters, the card allows 3-10",
        ),
        (
            {"card": "griffin-arbalesters", "standard": 4, "specials": ["sered"]},
            "units[2] (griffin-arbalesters): the card has no special fighter 'sered'",
        ),
        (
            {"card": "griffin-arbalesters", "standard": 4, "specials": ["arbalester"]},
            "units[2] (griffin-arbalesters): 'arbalester' is the standard profile, not a special",
        ),
        (
            {
                "card": "griffin-arbalesters",
                "standard": 4,
                "specials": ["arbalester-sergeant", "arbalester-sergeant"],
            },
            "units[2] (griffin-arbalesters): special 'arbalester-sergeant' twice (each special "
            "at most once)",
        ),
    ],
)
@pytest.mark.rule("C4-TYPE-OF-TROOP")
def test_unit_errors_are_one_line_and_sectioned(unit: dict[str, Any], error: str) -> None:
    first = {"card": "griffin-conscripts", "standard": 6, "specials": ["sered"]}
    report = validate_company(company(first, unit), CARDS)
    assert error in report.errors
    assert all(
        "\n" not in e and e.split(":")[0] in {"units[2] (" + unit["card"] + ")"}
        for e in report.errors
    )


def test_an_incarnate_in_one_unit_only() -> None:
    unit = {"card": "griffin-conscripts", "standard": 4, "specials": ["sered"]}
    report = validate_company(company(unit, unit), CARDS)
    assert report.errors == ("company: the Incarnate 'sered' is in 2 units (one at most)",)


def test_two_incarnates_cannot_share_a_unit(tmp_path: Path) -> None:
    card = CARDS["griffin-templars"].model_copy(
        update={
            "id": "griffin-heroes",
            "specials": [
                *CARDS["griffin-templars"].specials,
                CARDS["griffin-conscripts"].profile("sered"),
            ],
        }
    )
    cards = {**CARDS, "griffin-heroes": card}
    report = validate_company(
        company({"card": "griffin-heroes", "standard": 3, "specials": ["arcaedias", "sered"]}),
        cards,
    )
    assert report.errors == (
        "units[1] (griffin-heroes): two Incarnates in one unit (an Incarnate leads his unit)",
    )


def test_commander_has_the_highest_authority() -> None:
    # # C4 Authority Opposition: "the one with the highest Authority value is the Commander".
    c = company(
        {"card": "griffin-conscripts", "standard": 4, "specials": ["sered"]},
        {"card": "griffin-templars", "standard": 3, "specials": ["arcaedias"]},
        points=1000,
    )
    found = commander(c, CARDS)
    assert found is not None and found[0] == 1 and found[1].id == "arcaedias"
    assert commander(company({"card": "griffin-conscripts", "standard": 4}), CARDS) is None


# --- the loader --------------------------------------------------------------------------------


def test_load_a_bundled_company_file() -> None:
    assert bundled_companies()["griffin-vanguard"].unit[0].card == "griffin-conscripts"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "x"\npeople = "griffin"\npoints = 300\n', "unit: missing key"),
        (
            'name = "x"\npeople = "griffin"\npoints = "300"\n[[unit]]\ncard = "a"\nstandard = 1\n',
            "expected a whole number",
        ),
        (
            'name = "x"\npeople = "Griffin!"\npoints = 300\n[[unit]]\ncard = "a"\nstandard = 1\n',
            "people",
        ),
        (
            'name = "x"\npeople = "griffin"\npoints = 300\n[[unit]]\ncard = "a"\nstandard = -1\n',
            "unit[1].standard",
        ),
        (
            'name = "x"\npeople = "griffin"\npoints = 300\n[[unit]]\ncard = "a"\nstandard = 1\n'
            "colour = 2\n",
            "unknown key",
        ),
    ],
)
def test_bad_company_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "company.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LoadError) as error:
        load_company(path)
    assert message in str(error.value) and "\n" not in str(error.value)


value = st.one_of(
    st.integers(-3, 400), st.text(max_size=8), st.booleans(), st.lists(st.integers(), max_size=2)
)


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.encode("unicode_escape").decode().replace('"', '\\"') + '"'
    return repr(v)


@given(
    st.dictionaries(st.sampled_from(["name", "people", "points", "sample", "x"]), value),
    st.lists(
        st.dictionaries(
            st.sampled_from(["card", "standard", "specials", "y"]),
            value | st.sampled_from(["griffin-conscripts", "sered"]),
        ),
        max_size=3,
    ),
)
def test_any_company_file_loads_or_is_one_line_error(
    top: dict[str, Any], units: list[dict[str, Any]]
) -> None:
    lines = [f"{k} = {toml_value(v)}" for k, v in top.items()]
    for unit in units:
        lines += ["[[unit]]", *(f"{k} = {toml_value(v)}" for k, v in unit.items())]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.toml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            loaded = load_company(path)
        except LoadError as error:
            assert "\n" not in str(error)
            return
    # Whatever loads is validated into one-line sectioned messages, never an exception.
    report = validate_company(loaded, CARDS)
    for line in report.errors:
        assert "\n" not in line
        assert line.startswith(("units[", "company:", "points:"))


SPECIAL_IDS = sorted({s.id for c in CARDS.values() for s in c.specials} | {"nobody"})


@given(
    st.lists(
        st.tuples(
            st.sampled_from([*sorted(CARDS), "no-card"]),
            st.integers(0, 14),
            st.lists(st.sampled_from(SPECIAL_IDS), max_size=3),
        ),
        min_size=1,
        max_size=5,
    ),
    st.integers(1, 800),
)
def test_validation_invariants(units: list[tuple[str, int, list[str]]], points: int) -> None:
    c = company(
        *({"card": card, "standard": n, "specials": sp} for card, n, sp in units), points=points
    )
    report = validate_company(c, CARDS)
    # The cost, counted independently: cards' cost per standard fighter plus known specials.
    cost = 0
    incarnates: list[str] = []
    for card_id, n, specials in units:
        card = CARDS.get(card_id)
        if card is None:
            continue
        cost += card.cost * n
        for s in specials:
            match = [p for p in card.specials if p.id == s]
            cost += match[0].cost or 0 if match else 0
        incarnates += [p.id for p in card.specials if p.is_incarnate and p.id in specials]
    assert report.cost == cost
    assert (cost > points) == any(e.startswith("points:") for e in report.errors)
    assert (not incarnates) == (
        "company: no Incarnate (each company includes at least one)" in report.errors
    )
    assert report.ok == (not report.errors)
    for line in report.errors:
        assert "\n" not in line and line.startswith(("units[", "company:", "points:"))
