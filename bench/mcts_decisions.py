"""Decision quality of the search: regret against a large paired reference.

    .venv/bin/python bench/mcts_decisions.py [--games 6] [--positions 60] [--reference 200]
        [--kinds allocate_dice,defend,make_attack] [--iterations 48,96] [--seeds 3]
    .venv/bin/python bench/mcts_decisions.py --announcements [--reference 40]
        [--iterations 4,8] [--fights rolled,expected] [--variants "" "KEY=VALUE;..."]

With ``--announcements`` the positions are the announcements of the activation phase where an
assault is possible (IV-B-2, V-B-3), the options those the search imagines there
(:meth:`~confrontation.agents.mcts.MctsAgent.candidates`, more than one), the horizon the end of
the combat phase, and ``--iterations`` the search's ``announce_sweeps``; ``--fights`` lists how
the search judges the fights formed (``rolled``: the combat phase imagined with dice, as the
reference; ``expected``: the expected exchange where the combat phase begins), each measured.

    .venv/bin/python bench/mcts_decisions.py --finale [--finale-rounds 1] [--cards]
        [--reference 60] [--iterations 6] [--variants "" "KEY=VALUE;..."]

With ``--finale`` the positions are the decisions the search takes over in the last rounds of
Conquest (III-A-2, :mod:`~confrontation.agents.endgame`; with ``--cards`` the activation
sequence too, IV-A-1), the options its candidates, the horizon the end of the game (a win
:data:`~confrontation.agents.mcts.WIN` AP, plus the material), and ``--iterations`` the
search's ``finale_sweeps``.

Positions are the searched questions met in seeded greedy-vs-greedy games (Conquest, Lion
Vanguard mirror). For each, every option is followed by ``--reference`` imagined games
(greedy play for both sides to the search's horizon, the same worlds and the same named dice
for every option: :class:`~confrontation.agents.mcts.KeyedDice`); the option's value is its
mean material change (AP). An agent's **regret** on a position is the best option's value
less the value of the agent's answer. The script prints the mean regret per decision of the
greedy agent (the reference point of the same run) and of the search at each budget, over
``--seeds`` agent seeds, with the time per decision. A game takes a few seconds, the
reference about 2 s a position (combat questions) to 10 s (the Authority roll: its horizon is
the end of the combat phase).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from confrontation.agents import endgame
from confrontation.agents.greedy import GreedyAgent
from confrontation.agents.mcts import MctsAgent, _assaults, ranked_assaults
from confrontation.agents.spec import parse_agent_spec
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.sim.game import GameConfig
from recorded import Position, questions_met


def greedy_questions(
    games: int, seed: int, wanted: Callable[[GameState, Question], bool]
) -> list[Position]:
    """The questions ``wanted`` met in ``games`` greedy-vs-greedy games (seeds from ``seed``)."""
    found: list[Position] = []
    for k in range(games):
        config = GameConfig(
            armies=("lion-vanguard", "lion-vanguard"), agents=("greedy", "greedy"), seed=seed + k
        )
        found += questions_met(config, wanted)
    return found


def collect(games: int, kinds: frozenset[str], seed: int) -> list[Position]:
    """The questions of ``kinds`` (more than one answer) in greedy-vs-greedy games."""
    return greedy_questions(
        games,
        seed,
        lambda _, asked: (
            asked.kind in kinds and len(asked.choices) > 1 and asked.player is not None
        ),
    )


def announcements(games: int, seed: int) -> list[Position]:
    """The announcements with an assault among their options in greedy-vs-greedy games, each
    with the options the search imagines (more than one)."""
    found: list[Position] = []
    met = greedy_questions(
        games,
        seed,
        lambda state, asked: asked.player is not None and _assaults(state, asked.choices),
    )
    for state, asked, legal in met:
        assert asked.player is not None
        greedy = GreedyAgent(5, asked.player).choose(state, asked, legal)
        options = MctsAgent(0, asked.player).candidates(state, legal, greedy)
        if len(options) > 1:
            found.append((state, asked, options))
    return found


def finale(
    games: int, seed: int, rounds: int, cards: bool
) -> tuple[list[Position], list[Position]]:
    """The decisions of the last ``rounds`` rounds the search takes over (III-A-2) in
    greedy-vs-greedy games, each with the options it imagines (more than one); and the same
    positions with every legal answer (what the agent is asked)."""
    found: list[Position] = []
    asked_with: list[Position] = []
    met = greedy_questions(
        games,
        seed,
        lambda state, asked: (
            asked.player is not None and endgame.searched(state, asked, rounds, cards)
        ),
    )
    for state, asked, legal in met:
        assert asked.player is not None
        greedy = GreedyAgent(5, asked.player).choose(state, asked, legal)
        assaults = ranked_assaults(state, legal, greedy)[:2]
        options = endgame.candidates(state, legal, greedy, 7, assaults)
        if len(options) > 1:
            found.append((state, asked, options))
            asked_with.append((state, asked, legal))
    return found, asked_with


def reference(position: Position, games: int, seed: int, whole_game: bool = False) -> list[float]:
    """Each option's mean material change (and result, ``whole_game``) over ``games`` paired
    imagined games (greedy play after the option: the search without its tree)."""
    state, asked, options = position
    assert asked.player is not None
    judge = MctsAgent(seed, asked.player, tree=False)
    samples = judge.samples(state, asked.player, options, games, whole_game=whole_game)
    return [statistics.fmean(samples[option]) for option in options]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--reference", type=int, default=200)
    parser.add_argument("--kinds", default="allocate_dice,defend,make_attack")
    parser.add_argument("--iterations", default="48,96")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--announcements", action="store_true")
    parser.add_argument("--finale", action="store_true", help="the last rounds' decisions")
    parser.add_argument("--finale-rounds", type=int, default=1)
    parser.add_argument("--cards", action="store_true", help="with --finale: the sequences too")
    parser.add_argument(
        "--fights",
        default="expected",
        help="with --announcements: how the search judges the fights formed, as a list "
        "(rolled,expected: each is measured)",
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        default=[""],
        help="the search's options, each measured (KEY=VALUE;..., as on the command line)",
    )
    args = parser.parse_args()
    kinds = frozenset(args.kinds.split(","))
    started = time.perf_counter()
    asked_with: list[Position] = []
    if args.finale:
        found, asked_with = finale(args.games, args.seed, args.finale_rounds, args.cards)
    elif args.announcements:
        found = announcements(args.games, args.seed)
    else:
        found = collect(args.games, kinds, args.seed)
    spread = max(1, len(found) // args.positions)
    positions = found[::spread][: args.positions]
    legal_of = asked_with[::spread][: args.positions]
    print(f"{len(found)} positions in {args.games} games, {len(positions)} kept", flush=True)
    values = [reference(p, args.reference, 10**6, whole_game=args.finale) for p in positions]
    print(f"reference: {time.perf_counter() - started:.0f} s", flush=True)

    def regret(answer: Choice, i: int) -> float:
        return max(values[i]) - values[i][positions[i][2].index(answer)]

    greedy = [
        regret(GreedyAgent(5, q.player).choose(s, q, o), i) for i, (s, q, o) in enumerate(positions)
    ]
    print(f"greedy: regret {statistics.fmean(greedy):.3f} AP a decision")
    settings = [
        (int(b), fights, variant)
        for b in args.iterations.split(",")
        for fights in (args.fights.split(",") if args.announcements else ["rolled"])
        for variant in args.variants
    ]
    for budget, fights, variant in settings:
        extra = parse_agent_spec(f"mcts:{variant}")[1] if variant else {}
        means = []
        clock = time.perf_counter()
        for agent_seed in range(args.seeds):
            regrets = []
            for i, (state, asked, options) in enumerate(positions):
                seed = 100 * agent_seed + i
                if args.finale:
                    agent = MctsAgent(
                        seed,
                        asked.player,
                        kinds=(),
                        finale_sweeps=budget,
                        finale_rounds=args.finale_rounds,
                        finale_cards=args.cards,
                        **extra,
                    )
                    options = legal_of[i][2]
                elif args.announcements:
                    agent = MctsAgent(
                        seed,
                        asked.player,
                        announcements=True,
                        announce_sweeps=budget,
                        fights=fights,
                        **extra,
                    )
                else:
                    agent = MctsAgent(seed, asked.player, iterations=budget, **extra)
                    agent.kinds = kinds
                if args.finale or args.announcements:
                    # the same greedy answer, hence the same options, as the reference's
                    agent.greedy = GreedyAgent(5, asked.player)
                regrets.append(regret(agent.choose(state, asked, options), i))
            means.append(statistics.fmean(regrets))
        per = (time.perf_counter() - clock) / (args.seeds * len(positions))
        shown = ", ".join(f"{m:.3f}" for m in means)
        label = f"mcts {budget}" + ("" if fights == "rolled" else f" {fights}")
        label += f" [{variant}]" if variant else ""
        print(
            f"{label}: regret {statistics.fmean(means):.3f} AP a decision "
            f"(seeds: {shown}); {per:.2f} s a decision; "
            + (
                f"ratio to greedy {statistics.fmean(means) / statistics.fmean(greedy):.2f}"
                if statistics.fmean(greedy) > 0
                else "greedy has no regret here"
            )
        )


if __name__ == "__main__":
    main()
