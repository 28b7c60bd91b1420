"""Check or record the golden playthroughs (tests/golden/games.toml).

python scripts/golden.py            # which games differ from their record, and where
python scripts/golden.py --write    # record them anew (say why in the commit message)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from golden_support import (
    divergence,
    games,
    narration,
    play,
    recorded,
    recorded_narration,
    recorded_result,
    result_text,
    text_divergence,
    write,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the games anew")
    parser.add_argument("names", nargs="*", help="only these games (default: all)")
    args = parser.parse_args()
    chosen = [g for g in games() if not args.names or g.name in args.names]
    unknown = set(args.names) - {g.name for g in chosen}
    if unknown:
        print(f"golden.py: no golden game named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    differ = 0
    for game in chosen:
        result = play(game)
        new = list(result.events)
        stored = all(p.exists() for p in (game.path, game.narration_path, game.result_path))
        where: str | None = "no record yet"
        if stored:
            where = (
                divergence(recorded(game), new)
                or text_divergence(recorded_narration(game), narration(new))
                or text_divergence(recorded_result(game), result_text(result))
            )
        if where is None:
            print(f"{game.name}: unchanged ({len(new)} events)")
            continue
        differ += 1
        print(f"{game.name}: differs — {where}")
        if args.write:
            write(game, result)
            print(f"  recorded anew: {game.path} ({len(new)} events)")
    return 1 if differ and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
