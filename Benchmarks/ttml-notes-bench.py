#!/usr/bin/env python3
"""A long TTML track packaged and refreshed by this build and an earlier one, alternated.

    python3 Benchmarks/ttml-notes-bench.py --base BINARY [--cues 20000] [--runs 5] [--binary BINARY]

The track: CUES paragraphs 0.3 s apart in two regions (top and bottom), each with a colour that is
one of WebVTT's eight or not and an italic span, in the bundled example presentation (most cues
fall after its video: they are kept beside the rendition, in `cues.vtt`). Each build packages a
fresh copy, then refreshes it; the two builds take turns, each going first in turn. Prints the
median seconds of each job for both builds and their ratio. What it measures: the cost of the
format-neutral cue content a TTML cue keeps, and of the notes that carry it in `cues.vtt`.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, release_subweave, run  # noqa: E402


def track(path, cues):
    paragraphs = []
    for i in range(cues):
        begin = i * 0.3
        colour = "#ffff00" if i % 3 else "#12ab34"
        region = "bottom" if i % 2 else "top"
        paragraphs.append(f'<p begin="{begin:.3f}s" end="{begin + 0.25:.3f}s" region="{region}"><span tts:color="{colour}">Line {i}</span>'
                          ' and <span tts:fontStyle="italic">more</span></p>')
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" '
                'xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en"><head><layout>'
                '<region xml:id="bottom" tts:origin="10% 80%" tts:extent="80% 10%" tts:displayAlign="after"/>'
                '<region xml:id="top" tts:origin="10% 5%" tts:extent="80% 10%"/></layout></head>'
                f'<body><div>{"".join(paragraphs)}</div></body></tt>\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="an earlier subweave binary")
    ap.add_argument("--binary", help="this build's subweave (default: the release build of this checkout)")
    ap.add_argument("--cues", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    builds = {"this": args.binary or release_subweave(), "base": args.base}
    work = tempfile.mkdtemp(prefix="subweave-ttml-notes-")
    try:
        source = os.path.join(work, "track.ttml")
        track(source, args.cues)
        times = {name: {"package": [], "refresh": []} for name in builds}
        for r in range(args.runs):
            for name in (["this", "base"] if r % 2 == 0 else ["base", "this"]):
                copy = os.path.join(work, f"{name}-{r}")
                shutil.copytree(os.path.join(ROOT, "Examples/basic"), copy)
                master = os.path.join(copy, "master.m3u8")
                times[name]["package"].append(run([builds[name], "package", master, "--subtitle", f"url={source},language=en"])[0])
                times[name]["refresh"].append(run([builds[name], "refresh", master])[0])
                shutil.rmtree(copy)
        print(f"{args.cues} TTML cues, median of {args.runs}, the builds alternated")
        print("| job | this build (s) | base (s) | this / base |\n|---|---|---|---|")
        for job in ("package", "refresh"):
            a, b = statistics.median(times["this"][job]), statistics.median(times["base"][job])
            print(f"| {job} | {a:.3f} | {b:.3f} | {a / b:.2f} |")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
