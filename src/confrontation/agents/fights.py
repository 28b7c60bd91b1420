"""What the fights formed are worth: the coming combat phase estimated without rolling it.

At the end of the activation phase (IV-B) the fights of the round are set: who is in contact
with whom, who suffers a charge penalty (V-B-3). The search agent judges its activation-phase
decisions there (``mcts:fights=expected``) by the expected exchange of blows of one combat
phase — a number without dice noise, where rolling the combat phase gives a sample whose
spread (20-35 AP a round) hides the differences between the options (docs/ai.md).

The estimate is the greedy agent's arithmetic (:mod:`~confrontation.agents.assess`): every
fighter engaged has 1 + n combat dice against his n opponents (VII-C-1), keeps one in defence
and attacks each opponent once; his defence die blocks one of the attacks on him
(VII-C-4 b), the others come through undefended. Kills stopping later
attacks and the initiative (VII-C-2) are left out: the estimate compares options, it does not
predict the round.
"""

from __future__ import annotations

from confrontation.agents.assess import Blow, blow_of, hit_value, stake
from confrontation.engine.core.state import GameState
from confrontation.engine.table.field import field_of, has_field


def opponents(state: GameState) -> dict[str, list[str]]:
    """Each fighter in play in contact with enemies, and those enemies (VII-A)."""
    if not has_field(state):
        return {}
    here = field_of(state)
    engaged: dict[str, list[str]] = {}
    for fighter in state.fighters:
        if not fighter.in_play:
            continue
        enemies = here.enemies_in_contact(fighter.id)
        if enemies:
            engaged[fighter.id] = enemies
    return engaged


def exchange(state: GameState, me: int) -> float:
    """The expected worth (AP) ``me``'s fighters take from the enemy in one combat phase
    fought from here, minus what they lose (0 with nobody in contact). With three players
    or more (XX-F) what two other players take from each other counts for him too, as in
    :func:`~confrontation.agents.assess.material`: every enemy's loss is his gain."""
    engaged = opponents(state)
    blows: dict[str, Blow] = {f: blow_of(state, state.fighter(f)) for f in engaged}
    # 1 + n dice against n opponents (VII-C-1): one kept in defence, n attacks, one for each
    incoming = {f: 0 for f in engaged}
    for enemies in engaged.values():
        for e in enemies:
            incoming[e] += 1
    total = 0.0
    for f, enemies in engaged.items():
        side = state.fighter(f).player
        for e in enemies:
            sign = stake(me, side, state.fighter(e).player, rivals=1.0)
            defended = 1.0 / incoming[e]  # his one defence die blocks one attack of these
            taken = defended * hit_value(blows[f], blows[e], 1) + (1.0 - defended) * hit_value(
                blows[f], blows[e], 0
            )
            total += sign * taken
    return total
