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
from benchlib import ROOT, SEGMENT_SECONDS, make_title, release_subweave, run  # noqa: E402
LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "pl", "ja"]
SEGMENTS, CUES = 1200, 1500



def floor_binary(work):
    """Benchmarks/io-floor.c, compiled here."""
    binary = os.path.join(work, "io-floor")
    subprocess.run(["cc", "-O2", "-o", binary, os.path.join(ROOT, "Benchmarks", "io-floor.c")], check=True)
    return binary


def run_floor(packaged, root):
    """Writes what Subweave wrote into `packaged` (its generation folders, then the master) with
    the C floor program, and times it."""
    manifest = os.path.join(root + ".manifest")
    with open(manifest, "w") as out:
        for kind in ("subtitles", "captions"):
            base = os.path.join(packaged, kind)
            if not os.path.isdir(base):
                continue
            for rendition in sorted(os.listdir(base)):
                for generation in sorted(os.listdir(os.path.join(base, rendition))):
                    folder = os.path.join(base, rendition, generation)
                    for name in sorted(os.listdir(folder)):
                        out.write(f"{kind}/{rendition}/{generation}\t{name}\t{os.path.getsize(os.path.join(folder, name))}\n")
        out.write(f".\tmaster.m3u8\t{os.path.getsize(os.path.join(packaged, 'master.m3u8'))}\n")
    return run([FLOOR, manifest, root])


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
    cmd = [strace, "-f", "-T", "-e", "trace=syncfs,fsync,fdatasync", "-o", trace, subweave, "package", os.path.join(copy, "master.m3u8")]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()

    subweave = release_subweave()

    work = tempfile.mkdtemp(prefix="subweave-bench-")
    venv = os.path.join(work, "venv")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "webvtt-py==0.6.0"], check=True)
    webvtt = os.path.join(venv, "bin", "webvtt")
    hls, subs = make_title(work, SEGMENTS, LANGUAGES, CUES)
    global FLOOR
    FLOOR = floor_binary(work)

    ours, peer, floor = [], [], []
    for r in range(args.runs):
        # Subweave: one process, ten renditions, master rewritten (on a fresh copy each run).
        copy = os.path.join(work, f"run{r}")
        shutil.copytree(hls, copy, copy_function=os.link)
        os.unlink(os.path.join(copy, "master.m3u8"))
        shutil.copy(os.path.join(hls, "master.m3u8"), os.path.join(copy, "master.m3u8"))
        cmd = [subweave, "package", os.path.join(copy, "master.m3u8")]
        for lang in LANGUAGES:
            cmd += ["--subtitle", f"url={subs}/{lang}.srt,language={lang}"]
        ours.append(run(cmd))
        # The I/O floor: the same files written the same way by a C program, nothing else.
        floor.append(run_floor(copy, os.path.join(work, f"floor{r}")))
        # Peer: webvtt-py's segmenter, one run per language, 6 s target duration.
        walls, peaks = [], []
        for lang in LANGUAGES:
            out = os.path.join(work, f"peer{r}-{lang}")
            w, m = run([webvtt, "segment", os.path.join(subs, f"{lang}.vtt"), "-o", out, "-d", str(SEGMENT_SECONDS), "-m", "900000"])
            walls.append(w)
            peaks.append(m)
        peer.append((sum(walls), max(peaks)))

    rendition = os.path.join(work, "run0", "subtitles", "en-en")
    generation = os.path.join(rendition, [g for g in os.listdir(rendition) if not g.startswith(".")][0])
    segments_written = len([f for f in os.listdir(generation) if f.endswith(".vtt") and f != "cues.vtt"])
    durability = measure_durability(subweave, hls, subs, work)
    result = {
        "title": f"{SEGMENTS} segments x {SEGMENT_SECONDS} s, {len(LANGUAGES)} languages x {CUES} cues",
        "runs": args.runs,
        "subweave": {"wall_s": statistics.median(w for w, _ in ours), "peak_rss_mib": max(m for _, m in ours)},
        "webvtt_py": {"wall_s": statistics.median(w for w, _ in peer), "peak_rss_mib": max(m for _, m in peer)},
        "segments_per_rendition": segments_written,
        "durability": durability,
    }
    result["io_floor"] = {"wall_s": statistics.median(w for w, _ in floor)}
    result["ratio_to_floor"] = result["subweave"]["wall_s"] / result["io_floor"]["wall_s"]
    result["ratio_wall"] = result["subweave"]["wall_s"] / result["webvtt_py"]["wall_s"]
    result["ratio_peak_rss"] = result["subweave"]["peak_rss_mib"] / result["webvtt_py"]["peak_rss_mib"]
    print(json.dumps(result, indent=2))
    print(f"\nSubweave {result['subweave']['wall_s']:.2f} s, {result['subweave']['peak_rss_mib']:.1f} MiB; "
          f"webvtt-py {result['webvtt_py']['wall_s']:.2f} s (sum of 10 runs), {result['webvtt_py']['peak_rss_mib']:.1f} MiB peak. "
          f"Ratios (Subweave/peer): time {result['ratio_wall']:.2f}, memory {result['ratio_peak_rss']:.2f}; "
          f"I/O floor {result['io_floor']['wall_s']:.2f} s, Subweave/floor {result['ratio_to_floor']:.2f}")
    if durability:
        print(f"Durability (syncfs + fsync of the master and its folder): {durability['sync_s']:.3f} s of a "
              f"{durability['wall_s']:.2f} s run ({100 * durability['share']:.1f} %), {durability['calls']} calls")
    if not args.keep:
        shutil.rmtree(work)
    else:
        print("inputs and outputs kept in", work)


if __name__ == "__main__":
    main()
