#!/usr/bin/env python3
"""`subweave sync` of this checkout against another build on the same programme, alternating runs.

    python3 Benchmarks/sync-ab.py BASE_BINARY [--minutes 20] [--runs 5]

A programme of espeak-ng speech (synclib.programme, English, shuffled sentences) and a sidecar
2.5 s late; each build checks it `--runs` times, the two alternating, and the medians are printed:
whether a change to the analysis kept the speed.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release_subweave  # noqa: E402
from synclib import SENTENCES, programme, write_srt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    binaries = {"base": args.base, "this checkout": release_subweave()}
    work = tempfile.mkdtemp(prefix="subweave-sync-ab-")
    try:
        master, truth = programme(work, "ab", SENTENCES["en"], "en", args.minutes, intro=3.0, seed=3, shuffle=True)
        srt = os.path.join(work, "ab.srt")
        write_srt(srt, [(a + 2.5, b + 2.5, text, ident) for a, b, text, ident in truth])
        times = {name: [] for name in binaries}
        for _ in range(args.runs):
            for name, binary in binaries.items():
                started = time.perf_counter()
                subprocess.run([binary, "sync", master, "--subtitle", f"url={srt},language=en"], capture_output=True, check=True)
                times[name].append(time.perf_counter() - started)
        for name, values in times.items():
            print(f"{name}: median {statistics.median(values):.3f} s over {len(values)} runs ({', '.join(f'{v:.2f}' for v in values)})")
        print(f"this checkout / base: {statistics.median(times['this checkout']) / statistics.median(times['base']):.2f}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
