#!/usr/bin/env python3
"""Already-built `subweave` binaries (two builds to compare) on one of scale-bench.py's titles,
run alternately: the median wall, user and system time of each, and of the I/O floor on the same
files. With --instructions, each binary's user-space instructions in one run under valgrind's
callgrind instead (the same to a few hundredths of a per cent run to run, so two builds compare on
a noisy machine; a copy without debug information is run, which valgrind reads).

    python3 Benchmarks/user-time.py BINARY... [--runs 12] [--title large|small] [--instructions]

large: 10 hours (6,000 segments) x 20 SubRip languages of 9,000 cues; small: 100 minutes x 10 x
1,500. Each timed run starts from the title's inputs alone (benchlib.settle). Needs ffmpeg, cc,
and for --instructions valgrind and binutils' strip.
"""
import argparse, os, re, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import floor_binary, fresh_copy, make_title, package_command, settle, write_manifest  # noqa: E402

LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "pl", "ja",
             "da", "fi", "nb", "cs", "hu", "ro", "el", "tr", "ko", "zh"]
TITLES = {"small": (1000, LANGUAGES[:10], 1500), "large": (6000, LANGUAGES, 9000)}


def timed(cmd):
    """(wall, user, system) seconds of `cmd`, after the kernel has settled."""
    settle()
    # Its messages go to a file, not a pipe read after the wait: a full pipe would stall the run.
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            log.seek(0)
            sys.exit(f"{' '.join(cmd[:3])} … failed:\n{log.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime, usage.ru_stime


def instructions(binary, hls, subs, languages, work):
    stripped = os.path.join(work, "stripped")
    subprocess.run(["strip", "-g", "-o", stripped, binary], check=True)
    copy = os.path.join(work, "copy")
    fresh_copy(hls, copy)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(work, "callgrind.out")]
                         + package_command(stripped, copy, subs, languages), capture_output=True, text=True, timeout=3600)
    shutil.rmtree(copy)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        sys.exit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--title", choices=sorted(TITLES), default="large")
    ap.add_argument("--instructions", action="store_true")
    args = ap.parse_args()
    segments, languages, cues = TITLES[args.title]
    work = tempfile.mkdtemp(prefix="subweave-user-time-")
    try:
        hls, subs = make_title(work, segments, languages, cues)
        if args.instructions:
            for binary in args.binaries:
                print(f"{instructions(binary, hls, subs, languages, work):,} instructions  {binary}")
            return
        floor = floor_binary(work)
        runs = {binary: [] for binary in args.binaries}
        floors = []
        for _ in range(args.runs):
            for n, binary in enumerate(args.binaries):
                copy = os.path.join(work, "copy")
                fresh_copy(hls, copy)
                runs[binary].append(timed(package_command(binary, copy, subs, languages)))
                if n == 0:
                    write_manifest(copy, os.path.join(work, "manifest"))
                shutil.rmtree(copy)
                if n == 0:
                    floors.append(timed([floor, os.path.join(work, "manifest"), os.path.join(work, "floor")]))
                    shutil.rmtree(os.path.join(work, "floor"))

        def medians(rows):
            return [statistics.median(row[k] for row in rows) for k in range(3)]
        fw, fu, fs = medians(floors)
        print(f"I/O floor: wall {fw:.3f} s, user {fu:.3f} s, system {fs:.3f} s")
        for binary in args.binaries:
            w, u, s = medians(runs[binary])
            print(f"wall {w:.3f} s ({w / fw:.2f} x the floor), user {u:.3f} s, system {s:.3f} s  {binary}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
