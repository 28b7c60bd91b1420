"""The pure movement rules of chapter V that the engine asks (``rules.movement``)."""

from __future__ import annotations

import pytest

from confrontation.rules.movement import passable_friends


@pytest.mark.rule("V-A")
def test_only_activated_friends_free_of_any_enemy_may_be_passed_through() -> None:
    """V-A: "A combatant can pass "through" friendly combatants free of any enemy if they are
    activated during the same turn as him." """
    side = {"a": 0, "b": 0, "c": 0, "d": 0, "e": 1}
    activated = {"a": True, "b": False, "c": True, "d": True, "e": True}
    engaged = {"c"}
    passable = passable_friends(
        side,
        friend=lambda i: side[i] == 0,
        activated=lambda i: activated[i],
        free=lambda i: i not in engaged,
    )
    assert passable == ["a", "d"]


@pytest.mark.rule("V-A")
def test_whether_a_friend_is_free_is_asked_only_of_activated_friends() -> None:
    """V-A: only "friendly combatants ... activated during the same turn" may be passed
    through, so whether the others are free of any enemy (a look at the bases in contact,
    the costly test) is never asked."""
    asked: list[str] = []

    def free(i: str) -> bool:
        asked.append(i)
        return True

    passable_friends(
        ["friend", "enemy", "waiting"],
        friend=lambda i: i != "enemy",
        activated=lambda i: i != "waiting",
        free=free,
    )
    assert asked == ["friend"]
