#!/usr/bin/env python3
"""Packaging benchmark: a 2-hour title (6 s segments, 1200 of them) with 10 languages of 1,500 cues
each, packaged by the release-built `subweave` in one process, next to python webvtt-py's
segmenter (`webvtt segment`, one run per language) on the same cues, in the same run.

Reports wall time and peak memory (ru_maxrss from wait4) as medians of --runs repetitions and as
ratios Subweave / peer. The machine is shared: compare the ratios, not the seconds.

    python3 Benchmarks/package-bench.py [--runs 3] [--keep]

Needs: swift, ffmpeg (one real 6 s MPEG-TS segment), pip (installs webvtt-py 0.6.0 into a venv).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, SEGMENT_SECONDS, SUBTITLES_ONLY, floor_binary, make_title, package_copy, release_subweave, run, run_floor  # noqa: E402
LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "pl", "ja"]
SEGMENTS, CUES = 1200, 1500



def measure_durability(subweave, hls, subs, work):
    """One more run under strace, timing only the calls that make the output durable (syncfs,
    fsync, fdatasync): their share of the run is the cost of durability. None without strace."""
    strace = shutil.which("strace")
    if not strace:
        return None
    copy = os.path.join(work, "durability")
    shutil.copytree(hls, copy, copy_function=os.link)
    os.unlink(os.path.join(copy, "master.m3u8"))
    shutil.copy(os.path.join(hls, "master.m3u8"), os.path.join(copy, "master.m3u8"))
    trace = os.path.join(work, "sync.trace")
    cmd = [strace, "-f", "-T", "-e", "trace=syncfs,fsync,fdatasync", "-o", trace, subweave, "package", os.path.join(copy, "master.m3u8")] + SUBTITLES_ONLY
    for lang in LANGUAGES:
        cmd += ["--subtitle", f"url={subs}/{lang}.srt,language={lang}"]
    wall, _ = run(cmd)
    total, calls = 0.0, 0
    with open(trace) as f:
        for line in f:
            if "<" in line and line.rstrip().endswith(">") and ("sync" in line):
                total += float(line.rstrip()[line.rindex("<") + 1:-1])
                calls += 1
    return {"sync_s": total, "wall_s": wall, "share": total / wall if wall else 0.0, "calls": calls}


def measure(subweave, webvtt, floor_program, hls, subs, work, runs, tag):
    """Median wall time and peak memory of Subweave, webvtt-py and the I/O floor on one title."""
    ours, peer, floor = [], [], []
    for r in range(runs):
        # Subweave: one process, ten renditions, master rewritten (on a fresh copy each run).
        copy = os.path.join(work, f"{tag}-run{r}")
        ours.append(package_copy(subweave, hls, subs, LANGUAGES, copy))
        # The I/O floor: the same files written the same way by a C program, nothing else (after
        # Subweave's output is removed: run_floor says why).
        floor.append(run_floor(floor_program, copy, os.path.join(work, f"{tag}-floor{r}")))
        # Peer: webvtt-py's segmenter, one run per language, 6 s target duration.
        walls, peaks = [], []
        for lang in LANGUAGES:
            out = os.path.join(work, f"{tag}-peer{r}-{lang}")
            w, m = run([webvtt, "segment", os.path.join(subs, f"{lang}.vtt"), "-o", out, "-d", str(SEGMENT_SECONDS), "-m", "900000"])
            walls.append(w)
            peaks.append(m)
            shutil.rmtree(out)  # each timed run starts with the inputs alone (run_floor says why)
        peer.append((sum(walls), max(peaks)))
    result = {
        "subweave": {"wall_s": statistics.median(w for w, _ in ours), "peak_rss_mib": max(m for _, m in ours)},
        "webvtt_py": {"wall_s": statistics.median(w for w, _ in peer), "peak_rss_mib": max(m for _, m in peer)},
        "io_floor": {"wall_s": statistics.median(w for w, _ in floor)},
    }
    result["ratio_to_floor"] = round(result["subweave"]["wall_s"] / result["io_floor"]["wall_s"], 2)
    # Each run's Subweave over the floor run right after it: the machine's slow and fast minutes
    # fall on both sides of a pair, not on one median or the other.
    result["paired_ratio_to_floor"] = round(statistics.median(o / f for (o, _), (f, _) in zip(ours, floor)), 2)
    result["ratio_wall"] = round(result["subweave"]["wall_s"] / result["webvtt_py"]["wall_s"], 3)
    result["ratio_peak_rss"] = round(result["subweave"]["peak_rss_mib"] / result["webvtt_py"]["peak_rss_mib"], 2)
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()

    binaries = {"dynamic": release_subweave(), "static": release_subweave(static=True)}

    work = tempfile.mkdtemp(prefix="subweave-bench-")
    venv = os.path.join(work, "venv")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "webvtt-py==0.6.0"], check=True)
    webvtt = os.path.join(venv, "bin", "webvtt")
    floor = floor_binary(work)
    report = {"runs": args.runs, "titles": {}}
    for segments, label in [(SEGMENTS, "2 h"), (1000, "100 min")]:
        hls, subs = make_title(work, segments, LANGUAGES, CUES, name=f"title{segments}")
        entry = {"title": f"{label}: {segments} segments x {SEGMENT_SECONDS} s, {len(LANGUAGES)} languages x {CUES} cues"}
        for kind, subweave in binaries.items():
            entry[kind] = measure(subweave, webvtt, floor, hls, subs, work, args.runs, f"{segments}-{kind}")
        report["titles"][label] = entry
    hls, subs = os.path.join(work, f"title{SEGMENTS}"), os.path.join(work, f"title{SEGMENTS}-subs")
    report["durability"] = measure_durability(binaries["dynamic"], hls, subs, work)
    print(json.dumps(report, indent=2))
    for label, entry in report["titles"].items():
        for kind in binaries:
            r = entry[kind]
            print(f"{label}, {kind}: Subweave {r['subweave']['wall_s']:.3f} s / {r['subweave']['peak_rss_mib']:.1f} MiB, "
                  f"I/O floor {r['io_floor']['wall_s']:.3f} s (x{r['ratio_to_floor']}; run by run x{r['paired_ratio_to_floor']}), webvtt-py {r['webvtt_py']['wall_s']:.2f} s (x{r['ratio_wall']})")
    if not args.keep:
        shutil.rmtree(work)
    else:
        print("inputs and outputs kept in", work)


if __name__ == "__main__":
    main()
