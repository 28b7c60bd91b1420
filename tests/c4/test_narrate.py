"""C4 narration (``c4.narrate``): card names, plurals, moves in words."""

from __future__ import annotations

import pytest

from confrontation.c4 import events as ev
from confrontation.c4.narrate import (
    count,
    direction,
    distance,
    fighter_name,
    narrate,
    plural,
    profile_name,
    unit_name,
)


def test_units_fighters_and_profiles_by_their_card_names() -> None:
    assert unit_name("p1-griffin-conscripts") == "Player 1's Conscripts of the Griffin"
    assert unit_name("p2-lion-archers", owner=False) == "Archers of the Lion"
    assert fighter_name("p1-griffin-conscripts-sered") == "Sered the Blessed"
    assert fighter_name("p1-griffin-conscripts-3") == "a Conscript of the Griffin"
    assert fighter_name("p2-lion-archers-4") == "an Archer of the Lion"
    assert fighter_name("p2-lion-archers-archer-master") == "the Master archer"
    assert profile_name("griffin-arbalesters/arbalester") == "Arbalester of the Griffin"


def test_ids_without_a_bundled_card_are_spelt_out() -> None:
    assert unit_name("p2u1") == "p2u1"
    assert unit_name("p3-my-band") == "Player 3's my band"
    assert fighter_name("p1-nowhere-7") == "nowhere 7"
    assert profile_name("mine/x") == "mine x"


@pytest.mark.parametrize(
    ("one", "many"),
    [
        ("Spearman of the Lion", "Spearmen of the Lion"),
        ("Archer of the Lion", "Archers of the Lion"),
        ("Master archer", "Master archers"),
        ("Fenrir", "Fenrirs"),
        ("Abomination of Dirz", "Abominations of Dirz"),
        ("Crossbowman of Dirz", "Crossbowmen of Dirz"),
    ],
)
def test_plurals(one: str, many: str) -> None:
    assert plural(one) == many


def test_counts_agree() -> None:
    assert count(1, "hit") == "1 hit"
    assert count(2, "hit") == "2 hits"
    assert count(0, "hit") == "0 hits"
    assert count(1, "die", "dice") == "1 die"
    assert count(3, "die", "dice") == "3 dice"


def test_moves_in_words() -> None:
    assert direction(0, 20) == "north"
    assert direction(0, -5) == "south"
    assert direction(10, 10) == "north-east"
    assert direction(-3, 0) == "west"
    assert distance(20.0) == "20 cm"
    assert distance(13.46) == "13.5 cm"
    said = narrate(ev.UnitMoved("p1-griffin-conscripts", 0.0, 20.0))
    assert said == "Player 1's Conscripts of the Griffin move 20 cm north."
    said = narrate(ev.UnitMoved("p1-griffin-mantlet", -12.0, -4.0))
    assert said == "Player 1's Mantlet of the Griffin moves 12.5 cm west."


def test_salvo_sentence() -> None:
    one = ev.SalvoResolved(
        "p1-griffin-arbalesters", "p2-lion-archers", "griffin-arbalesters/arbalester-sergeant",
        1, 36.5, 6, 1, 1, 2, ("p2-lion-archers-3",),
    )  # fmt: skip
    assert narrate(one) == (
        "Player 1's Arbalesters of the Griffin shoot at Player 2's Archers of the Lion with "
        "1 Sergeant arbalester (36.5 cm, difficulty 6): 1 die, 1 hit, 2 damage points, "
        "1 fighter eliminated."
    )
    many = ev.SalvoResolved(
        "p2-lion-archers", "p1-griffin-arbalesters", "lion-archers/archer",
        5, 37.0, 6, 5, 0, 0, (),
    )  # fmt: skip
    assert narrate(many) == (
        "Player 2's Archers of the Lion shoot at Player 1's Arbalesters of the Griffin with "
        "5 Archers of the Lion (37 cm, difficulty 6): 5 dice, 0 hits, 0 damage points, "
        "none eliminated."
    )


def test_combat_sentence() -> None:
    fight = ev.CombatResolved(
        "p2-lion-spearmen", "p1-griffin-conscripts", "lion-spearmen/spearman",
        "griffin-conscripts/conscript-standard-bearer", 2, None, 2, 1, ("p1-x",),
    )  # fmt: skip
    assert narrate(fight) == (
        "Player 2's Spearmen of the Lion fight Player 1's Conscripts of the Griffin, the "
        "Spearmen of the Lion against the Standard bearer of the Griffin: 2 dice, 2 hits, "
        "1 damage point, 1 fighter eliminated."
    )
    duel = ev.CombatResolved(
        "p2-lion-spearmen", "p1-griffin-conscripts", "lion-spearmen/agonn",
        "griffin-conscripts/sered", 3, "sword", 1, 0, (),
    )  # fmt: skip
    said = narrate(duel)
    assert said is not None
    assert said.startswith("Player 2's Spearmen of the Lion fight Player 1's Conscripts")
    assert "Agonn the Hunter against Sered the Blessed with sword: 3 dice, 1 hit," in said


def test_losses_leaders_and_wounds() -> None:
    gone = narrate(ev.FighterEliminated("p1-griffin-conscripts-2", "p1-griffin-conscripts"))
    assert gone == "Player 1's Conscripts of the Griffin lose a Conscript of the Griffin."
    gone = narrate(
        ev.FighterEliminated("p1-griffin-conscripts-conscript-musician", "p1-griffin-conscripts")
    )
    assert gone == "Player 1's Conscripts of the Griffin lose the Drummer of the Griffin."
    lead = narrate(
        ev.LeaderReplaced(
            "p1-griffin-arbalesters", "p1-griffin-arbalesters-1", "p1-griffin-arbalesters-2"
        )
    )
    assert lead == (
        "An Arbalester of the Griffin fell: an Arbalester of the Griffin now leads "
        "Player 1's Arbalesters of the Griffin."
    )
    assert narrate(ev.FighterWounded("p2-lion-spearmen-agonn", 1)) == (
        "Agonn the Hunter is wounded: 1 health point left."
    )
    assert narrate(ev.FighterWounded("p2-lion-spearmen-agonn", 2)) == (
        "Agonn the Hunter is wounded: 2 health points left."
    )


def test_units_acting_and_cards() -> None:
    assert narrate(ev.UnitActed("p2-lion-knights", "assault", "p1-griffin-mantlet")) == (
        "Player 2's Knights of the Lion assault Player 1's Mantlet of the Griffin."
    )
    assert narrate(ev.UnitGone("p1-griffin-mantlet")) == (
        "Player 1's Mantlet of the Griffin has no fighter left: nothing to activate."
    )
    cards = ev.SequenceBuilt(0, ("p1-griffin-conscripts", "p1-griffin-arbalesters"))
    assert narrate(cards, 0) == (
        "Player 1's cards: Conscripts of the Griffin, Arbalesters of the Griffin."
    )
    assert narrate(cards, 1) == "Player 1 lays out 2 cards."
    assert narrate(ev.SequenceBuilt(0, ("p1-griffin-conscripts",)), 1) == (
        "Player 1 lays out 1 card."
    )
    assert narrate(ev.FirstActiveChosen(1, 1)) == "Player 2 chooses to be the first active player."
    assert narrate(ev.FirstActiveChosen(1, 0)) == (
        "Player 2 chooses Player 1 as the first active player."
    )
