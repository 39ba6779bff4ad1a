"""Regenerate tests/data/perft_line.json on purpose, after a deliberate change of the rules.

Run from the repository root: python tests/data/make_perft_line.py
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.engine.test_perft_line import DATA, POSITIONS, count, key  # noqa: E402


def main() -> None:
    counts = {}
    for position in POSITIONS:
        counts[key(*position)] = count(*position)
        print(key(*position), counts[key(*position)])
    DATA.write_text(json.dumps(counts, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
