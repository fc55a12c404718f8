"""Do two runs of `banker app --tour` show the same screens? (The arm64 test: its shots against this machine's.)

    PYTHON tests/deploy/compare_shots.py EXPECTED_DIR ACTUAL_DIR [--diff DIR]

Each shot in EXPECTED_DIR's shots.json must be in ACTUAL_DIR's, in the same order, with the same screen
and the same texts on it, and its PNG must match: the same size, at most `DIFFERING_MOST` of the pixels
differing by more than `TOLERANCE` in any channel (antialiased edges may round differently on another
processor's build of Mesa), and a mean difference of at most `MEAN_MOST`. A shot must also show
something: an error screen on the background colour, or a frame drawn before the app, has next to no
colours and fails however alike the two runs are. With --diff, a picture of where each shot differs
(the differing pixels white on black) is written into DIR. Prints a line per shot; exit status 0 when all
match, 1 when one does not.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

TOLERANCE = 16  # a channel's difference (of 255) that counts a pixel as differing
DIFFERING_MOST = 0.005  # the share of the pixels that may differ
MEAN_MOST = 1.0  # the mean difference over all pixels and channels (of 255)
COLOURS_LEAST = 16  # distinct colours a real screen has at least (text is antialiased: it has hundreds)


def pixels(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGBA"), dtype=np.int16)


def compare(expected: Path, actual: Path, diff: Path | None = None) -> dict[str, Any]:
    a, b = pixels(expected), pixels(actual)
    found: dict[str, Any] = {"size": [a.shape[1], a.shape[0]]}
    if a.shape != b.shape:
        found["problem"] = f"size {b.shape[1]}x{b.shape[0]}, expected {a.shape[1]}x{a.shape[0]}"
        return found
    delta = np.abs(a - b).max(axis=2)
    found["differing"] = float((delta > TOLERANCE).mean())
    found["mean"] = float(np.abs(a - b).mean())
    found["colours"] = int(len(np.unique(b.reshape(-1, 4), axis=0)))
    if found["colours"] < COLOURS_LEAST:
        found["problem"] = f"only {found['colours']} colours: an empty or failed screen"
    elif found["differing"] > DIFFERING_MOST or found["mean"] > MEAN_MOST:
        found["problem"] = (f"{found['differing']:.2%} of the pixels differ (at most {DIFFERING_MOST:.1%}), "
                            f"mean difference {found['mean']:.2f} (at most {MEAN_MOST})")
    if diff is not None and found["differing"] > 0:
        diff.mkdir(parents=True, exist_ok=True)
        Image.fromarray(((delta > TOLERANCE) * 255).astype(np.uint8)).save(diff / f"diff-{expected.name}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("expected", type=Path)
    parser.add_argument("actual", type=Path)
    parser.add_argument("--diff", type=Path, metavar="DIR", help="write where each shot differs into DIR")
    args = parser.parse_args()
    shots = [json.loads((folder / "shots.json").read_text(encoding="utf-8"))["shots"]
             for folder in (args.expected, args.actual)]
    failures = 0
    if len(shots[1]) != len(shots[0]):
        print(f"{len(shots[1])} shots, expected {len(shots[0])}")
        failures += 1
    for want, got in zip(*shots, strict=False):  # a missing shot is counted above
        problems = []
        if got["name"] != want["name"] or got["screen"] != want["screen"]:
            problems.append(f"shot {got['name']} of screen {got['screen']}, expected {want['name']} of {want['screen']}")
        if got["texts"] != want["texts"]:
            problems.append(f"other texts on screen: {got['texts']!r}")
        found = compare(args.expected / want["file"], args.actual / got["file"], args.diff)
        if "problem" in found:
            problems.append(found["problem"])
        figures = (f"{found['differing']:.3%} of pixels differ, mean {found['mean']:.3f}, {found['colours']} colours"
                   if "differing" in found else "")
        print(f"{'ok  ' if not problems else 'FAIL'} {want['file']}: {figures}" + "".join(f"; {p}" for p in problems))
        failures += bool(problems)
    print(f"{len(shots[0]) - failures} of {len(shots[0])} shots match" if failures else f"all {len(shots[0])} shots match")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
