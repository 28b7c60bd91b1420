"""The kinds of question the ``confede`` rules ask (issue 20 §3: kinds are an enum).

A pending question (:class:`~.state.Pending`), its handler (:class:`~.registry.Handler`) and
the :class:`~.questions.Question` shown to a player name their kind. The built-in rules use
the members of :class:`QuestionKind`; each value is the string the records have always held
(``Pending.kind`` in a saved state, ``ChoiceMade.question`` in a log), so records do not
change. The boundary types stay ``str``: a member *is* a ``str`` (equal to and hashing like
its value), and a plug-in's derived ruleset may register a handler for a kind of its own
that this enum does not list (docs/architecture.md, "Question kinds").
"""

from __future__ import annotations

from enum import StrEnum


class QuestionKind(StrEnum):
    """One member per kind of question the ``confede`` ruleset has a handler for."""

    # --- set-up and deployment (III-A, III-B) ---
    SCENERY_DIE = "scenery_die"
    """III-A-3: the dice that lay out the scenery (chance)."""
    ZONE_DIE = "zone_die"
    """III-A-3: the roll that says who chooses his deployment area (chance)."""
    SCENERY_START_DIE = "scenery_start_die"
    """XX-A-2: a player's d6 for who places the first standard element (chance)."""
    PLACE_SCENERY = "place_scenery"
    """XX-A-2, III-A-3: where a player places his standard scenery element."""
    CHOOSE_ZONE = "choose_zone"
    """III-A-3: the winner takes a deployment area."""
    DEPLOY = "deploy"
    """III-B: where a fighter is placed."""
    SCENARIO_DRAW = "scenario_draw"
    """III-A-2 (Execution): the die that draws one of the enemy's cards (chance)."""
    COUNT_FOR = "count_for"
    """XX-C-3: the objective a fighter standing on several counts for (his player chooses)."""
    COUNTERS = "counters"
    """XX-B-2: whether and where a fighter in contact with objectives adds or removes counters."""

    # --- strategic phase (IV-A) ---
    PLACE_CARD = "place_card"
    """IV-A-1: the next card of the secret activation sequence."""
    TACTICS_FIGHTER = "tactics_fighter"
    """IV-A-2: the fighter who rolls the Tactics roll."""
    TACTICS_DIE = "tactics_die"
    """IV-A-2: a Tactics die (chance)."""
    TACTICS_RAISE = "tactics_raise"
    """IV-A-2, II-A-1, II-A-3: raise a 6 of the Tactics roll or keep it."""
    CHOOSE_FIRST = "choose_first"
    """IV-B-1: the Tactics winner names who speaks first."""
    CHOOSE_PLACE = "choose_place"
    """XX-F-1, XX-F-3: with three players or more, each takes his place in the order, the best
    Tactics result first."""
    ROLLOFF_DIE = "rolloff_die"
    """II-A-3 (CLARIFICATIONS §9): a die of the roll-off that orders the raise decisions."""

    # --- activation phase (IV-B) ---
    FLOOR = "floor"
    """IV-B-1: the player with the floor plays a card, reserves, or refuses."""
    ACTIVATION = "activation"
    """IV-B-2: the activated fighters' next action (or the end of the activation)."""

    # --- movement (V) ---
    DESTINATION = "destination"
    """V-B: where a moving fighter ends his move."""
    ASSAULT_CONTACT = "assault_contact"
    """V-B-3: the place in contact a charger takes."""
    ROTATE_CHARGED = "rotate_charged"
    """V-B-3: how the charged fighter turns to face the charger."""
    REDIRECT = "redirect"
    """V-B-3: after the target of an assault is gone, assault another, stay, or run."""

    # --- tests and wounds (II-A, II-B) ---
    TEST_DIE = "test_die"
    """II-A: a die of a characteristic test (chance)."""
    TEST_RAISE = "test_raise"
    """II-A-1: raise a 6 of a test or keep it."""
    WOUND_DIE = "wound_die"
    """II-B-1: a die of a wound roll (chance)."""

    # --- shooting (VI) ---
    TAKE_COVER = "take_cover"
    """VI-A-2: the target of a shot dives for cover or not."""
    DISTRIBUTION_DIE = "distribution_die"
    """VI-B-1: the die that says whom a shot at a fighter in contact with friends hits (chance)."""
    CHOOSE_VICTIM = "choose_victim"
    """VI-A-2, XX-F-4: the shooter picks the victim among the fighters the shot may hit."""

    # --- combat phase (IV-C, VII) ---
    SPLIT_MELEE = "split_melee"
    """VII-A: how a melee is separated into combats."""
    NAME_FIGHTER = "name_fighter"
    """VII-A, VII-B, VII-C-2: the fighter a player names for an opposed test of the melee."""
    CONTEST_DIE = "contest_die"
    """VII-A, VII-B, VII-C-2: a die of an opposed test of the melee (chance)."""
    CONTEST_RAISE = "contest_raise"
    """II-A-1, II-A-3: raise a 6 of an opposed test of the melee or keep it."""
    CHOOSE_COMBAT = "choose_combat"
    """VII-B, VII-C-6 note 1: the player whose turn it is picks the next combat."""
    ALLOCATE_DICE = "allocate_dice"
    """VII-C-1: the split of a fighter's combat dice between attack and defence."""
    MAKE_ATTACK = "make_attack"
    """VII-C-3, VII-C-4 a: the attack a fighter makes with one of his attack dice."""
    DEFEND = "defend"
    """VII-C-4 b, VII-C-5: the defence dice spent against an attack (or a sustained defence)."""
    ATTACK_DIE = "attack_die"
    """VII-C-4: the attack test (chance)."""
    ATTACK_RAISE = "attack_raise"
    """VII-C-4, II-A-1: raise a 6 of the attack test or keep it."""
    DEFENCE_DIE = "defence_die"
    """VII-C-4: the defence test (chance)."""
    DEFENCE_RAISE = "defence_raise"
    """VII-C-4, II-A-1: raise a 6 of the defence test or keep it."""
    COMBAT_WOUND_DIE = "combat_wound_die"
    """VII-C-4, II-B-1: a die of the wound roll of a hit in combat (chance)."""
    PURSUE = "pursue"
    """VII-C-6: the pursuit move of a fighter whose enemies are all gone."""
    PURSUE_FIRST = "pursue_first"
    """VII-C-6, XX-E-5: which side makes its pursuit moves first."""

    # --- tokens (XX-D, C3 Looting: ``scenarios.tokens``) ---
    TOKEN_PICKUP = "token_pickup"
    """XX-D-1: does a fighter pick up the tokens he ended his move on?"""
    TOKEN_DROP = "token_drop"
    """XX-D-3: which carrier puts tokens down in the maintenance phase?"""

    # --- scenery attacks (C3, CLARIFICATIONS §6) ---
    ATTACK_SCENERY = "attack_scenery"
    """C3: the elements of scenery a fighter attacks, with how many dice each."""
    SCENERY_ATTACK_DIE = "scenery_attack_die"
    """C3: a die of the attack test against an element of scenery (chance)."""
    SCENERY_ATTACK_RAISE = "scenery_attack_raise"
    """C3, II-A-1: raise a 6 of the attack test against scenery or keep it."""
    SCENERY_DAMAGE_DIE = "scenery_damage_die"
    """C3: a die of the damage roll against an element of scenery (chance)."""

    # --- neutral fighters (XX-E, C3) ---
    NEUTRAL_TARGET_DIE = "neutral_target_die"
    """XX-E: the die that picks a neutral fighter's target among equals (chance)."""
    NEUTRAL_ASSAULT_DIE = "neutral_assault_die"
    """XX-E: the die that picks a neutral fighter's assault among equals (chance)."""

    # --- the control-point pack (003) ---
    CP_FLAG_DIE = "cp_flag_die"
    """CP-INCURSION-SPECIAL-RULES: the die that removes one flag at random (chance)."""
    CP_DOMINATE = "cp_dominate"
    """CP-DOMINATE: at a scoring, a player names the one element his Commander dominates,
    of the several he could."""

    # --- scenarios (XX-B) ---
    CHOOSE_COMMANDER = "choose_commander"
    """XX-B-1, C3 "Chief": a player names his Commander among his tied Champions."""
