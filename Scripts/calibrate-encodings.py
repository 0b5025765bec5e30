#!/usr/bin/env python3
"""Fits EncodingCalibration's table and prints its calibration curves.

    SUBWEAVE_CALIBRATE=1 swift test --filter calibrationData   # writes .build/encoding-calibration-{train,test}.tsv
    python3 Scripts/calibrate-encodings.py                     # prints the Swift table and the curves

Each row of the data is one guess on the real-text corpus (a file in one encoding, cut to 256 B …
whole): whether it was right, its margin over the best rival reading, and its evidence (non-ASCII
characters). The table is the share of right guesses per (evidence bin, margin bin) on the training
half, made monotone in the margin and smoothed towards the row's overall share where a cell holds
few guesses. The curves group the held-out half's guesses by the confidence they were given and
compare it with the share that was right.
"""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MARGINS = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 1.01]
EVIDENCE = [4, 10, 20, 40, 150, 10**9]
FAMILIES = ("latin", "script", "cjk")


def rows(split, family=None):
    with open(os.path.join(ROOT, f".build/encoding-calibration-{split}.tsv")) as f:
        for line in f:
            cut, _, codec, right, margin, evidence, confidence, guessed = line.rstrip("\n").split("\t")
            if family is None or guessed == family:
                yield int(cut), codec, int(right), float(margin), int(evidence), float(confidence)


def cell(margin, evidence):
    e = next(i for i, b in enumerate(EVIDENCE) if evidence < b)
    m = next((i for i, b in enumerate(MARGINS) if margin < b), len(MARGINS) - 1)
    return e, m


def fit(family):
    counts = [[[0, 0] for _ in MARGINS] for _ in EVIDENCE]
    for _, _, right, margin, evidence, _ in rows("train", family):
        e, m = cell(margin, evidence)
        counts[e][m][0] += right
        counts[e][m][1] += 1
    table = []
    for e, row in enumerate(counts):
        total = [sum(c[0] for c in row), sum(c[1] for c in row)]
        prior = (total[0] + 1) / (total[1] + 2)
        # A cell of few guesses leans on its row (5 pseudo-guesses at the row's share).
        values = [(c[0] + 5 * prior) / (c[1] + 5) for c in row]
        # Monotone in the margin: a wider lead is never less sure.
        for i in range(1, len(values)):
            values[i] = max(values[i], values[i - 1])
        table.append([min(0.999, round(v, 3)) for v in values])
    return table, counts


def curve(split, family=None, bins=(0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 1.01)):
    groups = [[0, 0] for _ in bins]
    for _, _, right, _, _, confidence in rows(split, family):
        i = next(i for i, b in enumerate(bins) if confidence < b)
        groups[i][0] += right
        groups[i][1] += 1
    lower = [0.0] + list(bins[:-1])
    return [(lower[i], bins[i], g[1], g[0] / g[1] if g[1] else None) for i, g in enumerate(groups)]


def main():
    for family in FAMILIES:
        table, counts = fit(family)
        name = family
        print(f"    static let {name}: [[Double]] = [")
        for row in table:
            print("        [" + ", ".join(f"{v}" for v in row) + "],")
        print("    ]")
        print(f"\n{family} cells (right/total) by evidence bin x margin bin:")
        for e, row in enumerate(counts):
            print(f"  evidence < {EVIDENCE[e]}: " + "  ".join(f"{c[0]}/{c[1]}" for c in row))
    for split in ("train", "test"):
        for family in FAMILIES:
            print(f"\n{split}, {family}: confidence given -> share right")
            for low, high, n, share in curve(split, family):
                print(f"  [{low:.2f}, {min(high, 1):.2f}): {n:4d} guesses, " + ("-" if share is None else f"{share:.3f} right"))


if __name__ == "__main__":
    main()
