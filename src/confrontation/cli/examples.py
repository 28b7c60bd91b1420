"""One example per command, shown at the end of its ``--help`` (issue 26).

Keyed by the command's path; ``load_command`` hangs each on its command as the epilog. A test
walks every command and checks it has one; the cheap ones are run by the tests as written.
"""

from __future__ import annotations

EXAMPLES: dict[str, str] = {
    "": "confrontation play --scenario standard --agents greedy,random",
    "simulate": "confrontation simulate --games 100 --agents greedy,random --jobs 2",
    "play": "confrontation play --scenario loot --agents human,greedy --svg table.svg",
    "odds": "confrontation odds test --value 4 --difficulty 7",
    "odds test": "confrontation odds test --value 4 --difficulty 7",
    "odds opposed": "confrontation odds opposed --a 4 --b 3",
    "odds wound": "confrontation odds wound --str 6 --res 5",
    "odds shot": "confrontation odds shot --shooter griffin-fusilier --target dirz-clone "
    "--distance 25",
    "odds attack": "confrontation odds attack --attacker praetorian-guard --defender dirz-clone",
    "odds combat": "confrontation odds combat --attacker praetorian-guard --defender dirz-clone",
    "odds advise": "confrontation odds advise --attacker praetorian-guard --defender dirz-clone "
    "--defender dirz-halberdier",
    "odds c4-test": "confrontation odds c4-test --action 4 --difficulty 3 --dice 6",
    "odds c4-salvo": "confrontation odds c4-salvo --marksmen 5 --dice 1 --ranged 3 --distance 25 "
    "--strength 4 --resilience 3 --targets 8",
    "odds c4-combat": "confrontation odds c4-combat --dice 6 --attack 4 --defense 3 --strength 4 "
    "--resilience 3 --targets 4",
    "tournament": "confrontation tournament check spring-cup.toml",
    "tournament check": "confrontation tournament check spring-cup.toml",
    "tournament new": "confrontation tournament new spring-cup.toml",
    "tournament list": "confrontation tournament list",
    "tournament pair": "confrontation tournament pair 1",
    "tournament result": "confrontation tournament result 1 --table 1 --vp 2 1 --losses 120 85",
    "tournament play": "confrontation tournament play 1",
    "tournament show": "confrontation tournament show 1",
    "tournament standings": "confrontation tournament standings 1 --format html -o standings.html",
    "tournament ai": "confrontation tournament ai --armies lion-vanguard goblin-raiders -n 4",
    "army": "confrontation army validate my-list.toml --json",
    "army validate": "confrontation army validate my-list.toml --json",
    "army show": "confrontation army show my-list.toml",
    "profiles": "confrontation profiles show praetorian-guard",
    "profiles list": "confrontation profiles list --people griffin",
    "profiles show": "confrontation profiles show praetorian-guard",
    "games": "confrontation games list --limit 10",
    "games list": "confrontation games list --limit 10",
    "games show": "confrontation games show 1",
    "games replay": "confrontation games replay 1",
    "games delete": "confrontation games delete 3 4",
    "scenarios": "confrontation scenarios show loot",
    "scenarios list": "confrontation scenarios list",
    "scenarios show": "confrontation scenarios show conquest:campsites",
    "serve": "confrontation serve --port 8000",
}
"""Command path (space-separated, "" for the root) → an example command line."""


def example_of(path: str) -> str | None:
    """The help epilog of the command at ``path``, or None if it has no example."""
    line = EXAMPLES.get(path)
    return None if line is None else f"Example: {line}"
