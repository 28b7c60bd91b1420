"""The story beside the table: each narrated line with the section of the rules it follows
and the dice rolled for it, as they fell."""

from __future__ import annotations

import re

SECTIONS: dict[str, str] = {
    "game_started": "III-A",
    "round_started": "IV",
    "phase_started": "IV",
    "phase_ended": "IV",
    "scenery_laid": "III-A-3",
    "scenery_rolled": "XX-A-2",
    "scenery_placed": "XX-A-2",
    "zone_chosen": "III-A-3",
    "deployed": "III-B",
    "cards_withdrawn": "IV-A-1",
    "sequence_set": "IV-A-1",
    "tactics_fighter_chosen": "IV-A-2",
    "tactics_rolled": "IV-A-2",
    "tactics_tied": "IV-A-2",
    "test_raised": "II-A-1",
    "rolled_off": "II-A-3",
    "first_speaker_chosen": "IV-B-1",
    "place_taken": "XX-F-1",
    "refusals_granted": "IV-B-1",
    "card_revealed": "IV-B-1",
    "card_placed_in_reserve": "IV-B-1",
    "card_refused": "IV-B-1",
    "fighter_activated": "IV-B-2",
    "activation_ended": "IV-B-2",
    "maintenance_step": "IV-D",
    "markers_removed": "IV-D",
    "game_ended": "III-A-2",
    "action_announced": "IV-B-2",
    "test_rolled": "II-A",
    "moved": "V-B",
    "charged": "V-B-3",
    "engaged": "V-B-3",
    "assault_fell_short": "V-B-3",
    "assault_redirected": "V-B-3",
    "fighters_rotated": "V-B-3",
    "disengaged": "V-C",
    "disengage_failed": "V-C",
    "took_cover": "VI-A-2",
    "shot_fired": "VI-A",
    "shot_missed": "VI-A-3",
    "shot_hit": "VI-B",
    "wounded": "II-B",
    "fighter_killed": "II-B-2",
    "melee_found": "VII-A",
    "contest_fighter_named": "VII-A",
    "contest_tied": "II-A-3",
    "split_rolled": "VII-A",
    "combat_split": "VII-A",
    "authority_rolled": "VII-B",
    "combat_turns_set": "VII-B",
    "combat_chosen": "VII-B",
    "dice_allocated": "VII-C-1",
    "initiative_rolled": "VII-C-2",
    "weapon_combat_started": "VII-C-3",
    "attack_declared": "VII-C-4",
    "defence_announced": "VII-C-4",
    "sustained_defence": "VII-C-5",
    "attack_rolled": "VII-C-4",
    "defence_rolled": "VII-C-4",
    "combat_resolved": "VII-C",
    "pursued": "VII-C-6",
}
"""The section each kind of event follows, where its sentence does not name one."""

CITED = re.compile(r"\b((?:[IVX]+|XX)-[A-Z](?:-\d+)?)\b")
"""A section the sentence names itself (its first, e.g. "(XX-F-3)")."""


def section_of(kind: str, sentence: str) -> str | None:
    """The section a narrated line cites: the one its sentence names, else its event's."""
    named = CITED.search(sentence)
    if named is not None:
        return named.group(1)
    return SECTIONS.get(kind)
