#!/usr/bin/env python3
"""A captioned ladder packaged against `cat` of its smallest variant, in the same run.

    python3 Benchmarks/ladder-bench.py [--minutes 30] [--base BINARY [--pairs 9]] [--keep | --ladder DIR]

The ladder: Fixtures/captions/programme.ts (CEA-608 CC1 and CC3) re-encoded by x264 into three
rungs, 960x540 at 8 Mbit/s, 480x270 at 1.5 Mbit/s and 160x90 at 300 kbit/s, each carrying the
captions (x264 writes the decoder's A/53 data back), with keyframes every 2 s; each looped with
`-c copy` to `--minutes` and cut into 6 s HLS segments. The master lists the largest first (the
reference: the first variant with video), as ladders often do.

Times (page cache warm, the median of five runs; peak memory of subweave's own process):
`cat` of the smallest variant's segments (the floor: reading every byte of one variant once),
`subweave --version` (the start-up; the goal for `package --dry-run` is 1.5 × that `cat` plus it),
`cat` of the largest's, `package --dry-run` with one SubRip sidecar, `package`, `refresh`, and
`package` again with nothing changed; each against the smallest variant's `cat`. With `--base`,
another subweave binary (an earlier build) runs `package --dry-run` too, in the same run,
alternating with this build run by run, which goes first alternating too (the median of
`--pairs`, nine by default, each; and how many pairs this build won). The machine is shared: compare
the ratios, not the seconds.
"""
import argparse, glob, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, release_subweave, run  # noqa: E402

PRISTINE = "master-as-made.m3u8"
RUNGS = [("top", "960:540", "8M"), ("mid", "480:270", "1500k"), ("low", "160:90", "300k")]


def ladder(work, minutes):
    source = os.path.join(ROOT, "Fixtures/captions/programme.ts")
    for name, size, rate in RUNGS:
        clip = os.path.join(work, f"{name}-clip.ts")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", source, "-vf", f"scale={size}", "-c:v", "libx264",
                        "-preset", "ultrafast", "-b:v", rate, "-maxrate", rate, "-bufsize", rate, "-g", "60", "-keyint_min", "60",
                        "-sc_threshold", "0", "-bf", "2", "-an", "-f", "mpegts", clip], check=True)
        loops = max(0, int(minutes * 60 / 20.02) - 1)
        folder = os.path.join(work, name)
        os.makedirs(folder)
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-stream_loop", str(loops), "-i", clip, "-c", "copy",
                        "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod", "-hls_segment_filename", os.path.join(folder, "s%05d.ts"),
                        os.path.join(folder, "index.m3u8")], check=True)
        os.remove(clip)
    lines = ["#EXTM3U"]
    for name, size, rate in RUNGS:
        width, height = size.split(":")
        bits = int(rate[:-1]) * (1000000 if rate.endswith("M") else 1000)
        lines += [f'#EXT-X-STREAM-INF:BANDWIDTH={bits},CODECS="avc1.64001f",RESOLUTION={width}x{height}', f"{name}/index.m3u8"]
    # The runs rewrite master.m3u8; a kept ladder keeps the master as made beside it, for --ladder.
    for name in ("master.m3u8", PRISTINE):
        with open(os.path.join(work, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(work, "en.srt"), "w") as f:
        for i in range(int(minutes * 60 / 4)):
            f.write(f"{i + 1}\n{srt(i * 4000 + 500)} --> {srt(i * 4000 + 3000)}\nLine {i + 1}\n\n")


def srt(ms):
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def median(cmd, times=5):
    runs = [run(cmd) for _ in range(times)]
    return sorted(w for w, _ in runs)[len(runs) // 2], max(m for _, m in runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--ladder", help="a ladder kept by an earlier --keep run (its master as made, " + PRISTINE + "), timed again instead of a new one")
    ap.add_argument("--base", help="an earlier subweave binary to time package --dry-run with")
    ap.add_argument("--pairs", type=int, default=9, help="with --base: how many alternated runs of each")
    args = ap.parse_args()
    subweave = release_subweave()
    work = tempfile.mkdtemp(prefix="subweave-ladder-")
    try:
        if args.ladder:
            # The kept ladder's media, linked; its master and sidecar copied, so that what a run
            # writes lands here and the kept ladder stays as made.
            for name, _, _ in RUNGS:
                os.symlink(os.path.join(os.path.abspath(args.ladder), name), os.path.join(work, name))
            shutil.copy(os.path.join(args.ladder, PRISTINE), os.path.join(work, "master.m3u8"))
            shutil.copy(os.path.join(args.ladder, "en.srt"), work)
        else:
            ladder(work, args.minutes)
        sizes = {name: sum(os.path.getsize(p) for p in glob.glob(os.path.join(work, name, "*.ts"))) for name, _, _ in RUNGS}
        print(f"ladder of {args.minutes:g} min: " + ", ".join(f"{n} {sizes[n] / 2**20:.0f} MiB" for n in sizes)
              + f"; top / low = {sizes['top'] / sizes['low']:.1f}")
        master = os.path.join(work, "master.m3u8")
        track = ["--subtitle", f"url={os.path.join(work, 'en.srt')},language=en"]
        rows = []
        for name in ("low", "top"):
            segments = sorted(glob.glob(os.path.join(work, name, "*.ts")))
            rows.append((f"cat of the {name} variant ({len(segments)} segments)", *median(["cat"] + segments)))
        floor = rows[0][1]
        startup = median([subweave, "--version"])[0]
        run(["cat"] + sorted(glob.glob(os.path.join(work, "*", "*.ts"))))  # warm every variant once
        dry = subprocess.run([subweave, "package", master, *track, "--dry-run", "--json"], capture_output=True, text=True, check=True)
        read = json.loads(dry.stdout).get("captions_read_from")
        dry = [subweave, "package", master, *track, "--dry-run"]
        if args.base:
            # Alternated, run by run, so that both builds see the same machine.
            base = [args.base, "package", master, *track, "--dry-run"]
            pairs = [(run(dry), run(base)) if i % 2 == 0 else tuple(reversed((run(base), run(dry)))) for i in range(args.pairs)]
            for label, which in (("package --dry-run, one sidecar", 0), (f"package --dry-run, one sidecar, by {args.base}", 1)):
                runs = sorted(p[which] for p in pairs)
                rows.append((label, runs[len(runs) // 2][0], max(m for _, m in runs)))
            faster = sum(1 for a, b in pairs if a[0] < b[0])
            print(f"alternated package --dry-run: this build faster in {faster} of {len(pairs)} pairs")
        else:
            rows.append(("package --dry-run, one sidecar", *median(dry)))
        rows.append(("package (first run)", *run([subweave, "package", master, *track])))
        rows.append(("refresh", *median([subweave, "refresh", master])))
        rows.append(("package again, nothing changed", *median([subweave, "package", master, *track])))
        dry_run = next(wall for label, wall, _ in rows if label == "package --dry-run, one sidecar")
        goal = 1.5 * floor + startup
        print(f"start-up (subweave --version): {startup:.3f} s; goal for package --dry-run, 1.5 x cat + start-up: {goal:.3f} s: "
              + ("met" if dry_run <= goal else "not met") + f" ({dry_run:.3f} s)")
        print(f"captions read from: {read}")
        print("| job | seconds | peak MiB | × cat of the smallest variant |\n|---|---|---|---|")
        for label, wall, rss in rows:
            print(f"| {label} | {wall:.3f} | {rss:.0f} | {wall / floor:.2f} |")
    finally:
        if args.keep:
            print("kept", work)
        else:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
