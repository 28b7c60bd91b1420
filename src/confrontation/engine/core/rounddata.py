"""Loads ``data/round.toml``: the Tactics-roll eligibility (IV-A-2) and maintenance steps (IV-D)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class MaintenanceStep:
    """One step of the maintenance phase."""

    name: str
    section: str
    label: str


@dataclass(frozen=True)
class RoundData:
    """The data of chapter IV the engine reads."""

    alliance_ability: str
    not_of_the_people: tuple[str, ...]
    maintenance: tuple[MaintenanceStep, ...]


def parse_round_data(text: str, source: str = "round.toml") -> RoundData:
    """Read the round data from TOML text; a missing field names the file and field."""
    try:
        raw = tomllib.loads(text)
        tactics = raw["tactics_roll"]
        steps = tuple(
            MaintenanceStep(str(s["name"]), str(s["section"]), str(s["label"]))
            for s in raw["maintenance"]
        )
        return RoundData(
            alliance_ability=str(tactics["alliance_ability"]),
            not_of_the_people=tuple(str(a) for a in tactics.get("not_of_the_people", ())),
            maintenance=steps,
        )
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{source}: not valid TOML ({error})") from None
    except KeyError as error:
        raise ValueError(f"{source}: missing field {error.args[0]!r}") from None


def load_round_data(path: Path | None = None) -> RoundData:
    """The round data from ``path``, or the packaged ``data/round.toml``."""
    if path is not None:
        return parse_round_data(path.read_text(encoding="utf-8"), str(path))
    return _packaged()


@cache
def _packaged() -> RoundData:
    text = resources.files("confrontation.data").joinpath("round.toml").read_text("utf-8")
    return parse_round_data(text, "data/round.toml")
