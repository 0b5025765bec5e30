#!/usr/bin/env python3
"""Sync check benchmark: `subweave sync` against ffsubsync on programmes with speech at known times.

    python3 Benchmarks/sync-bench.py [--minutes 4] [--keep] [--no-ffsubsync]

Each programme is made here: espeak-ng speaks sentences (English, or French for the second
language) at known times over 16 kHz mono sound, with a silent intro, a music bed (a sustained
chord with a slow swell) or a noise bed under some of it; ffmpeg muxes it with a test-pattern video
into an HLS presentation (6 s TS segments), some with a media timeline that starts at 10 s. The
truth is a SubRip file with a cue per sentence (its sound's onset and end). Each case turns the
truth into a sidecar: shifted (−0.8 … +11 s, or timed from 10:00:00), scaled by a standard rate
(25/23.976, 24/23.976, 25/24 and the inverses), both, edited (10 % of cues dropped, some merged,
some split), or made for another programme.

Per case, `subweave sync --json` (release build) gives a verdict, offset and rate; the fix
t' = (t − offset) / rate is applied to the sidecar and compared with the truth. ffsubsync
(`ffsubsync programme.ts -i sidecar.srt -o fixed.srt`) fixes the same sidecar. Printed: per case,
each tool's share of cues whose start and end are within 100 ms of the truth after its fix, and
its wall time; then the totals and the time ratio ffsubsync / Subweave, measured in the same run.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release_subweave  # noqa: E402
from synclib import FILM, SENTENCES, edited, programme, read_srt, timed, within, write_srt  # noqa: E402

SENTENCES_EN, SENTENCES_FR, SENTENCES_OTHER = SENTENCES["en"], SENTENCES["fr"], SENTENCES["other"]


def long_cases(work, subweave, ffsubsync, minutes):
    """A realistic programme (960x540 at about 3 Mbit/s, 48 kHz stereo AAC at 128 kbit/s, speech
    in no repeating order): both tools on a late and a 25 fps sidecar, time and accuracy."""
    master, truth = programme(work, "long", SENTENCES_EN, "en", minutes, seed=9, shuffle=True,
                              video=("960x540", "25", ["-b:v", "3M"]), audio=("128k", 2))
    size = sum(os.path.getsize(os.path.join(work, "long", f)) for f in os.listdir(os.path.join(work, "long")) if f.startswith("seg_"))
    print(f"\nlong programme: {minutes} min, {size / 2**20:.0f} MiB of segments, {len(truth)} cues")
    # The floor both tools stand on: ffmpeg alone decoding the programme's sound (its audio
    # packets only) to 8 kHz mono, the median of three.
    audio = os.path.join(work, "long-audio.ts")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", os.path.join(work, "long", "whole.ts"), "-map", "0:a",
                    "-c", "copy", audio], check=True)
    floor = sorted(timed(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", audio, "-ac", "1", "-ar", "8000", "-f", "s16le", "-"])[0]
                   for _ in range(3))[1]
    print(f"  ffmpeg alone decoding its sound to 8 kHz mono: {floor:.2f} s")
    for label, off, r in [("+2.5 s", 2.5, 1.0), ("rate 25/23.976", 0.0, 25 / FILM)]:
        sidecar = [(r * a + off, r * b + off, text, ident) for a, b, text, ident in truth]
        srt = os.path.join(work, "long.srt")
        write_srt(srt, sidecar)
        ours_time, ours_rss, out, code = timed([subweave, "sync", master, "--subtitle", f"url={srt},language=en", "--json"])
        found = json.loads(out)["tracks"][0]
        o, rr = found["offset_s"], found["rate"]
        reference = [truth[i][:2] for *_, i in sidecar]
        ours_acc = within([((a - o) / rr, (b - o) / rr) for a, b, *_ in sidecar], reference)
        line = f"  {label:16} Subweave {found['verdict']:8} {100 * ours_acc:5.1f}% {ours_time:6.2f} s {ours_rss:5.0f} MiB"
        if ffsubsync:
            fixed = os.path.join(work, "long.ffs.srt")
            ffs_time, ffs_rss, _, _ = timed([ffsubsync, os.path.join(work, "long", "whole.ts"), "-i", srt, "-o", fixed])
            ffs_acc = within(read_srt(fixed), reference) if os.path.exists(fixed) else 0
            line += f" | ffsubsync {100 * ffs_acc:5.1f}% {ffs_time:6.2f} s {ffs_rss:5.0f} MiB | ffsubsync / Subweave time {ffs_time / ours_time:4.1f}x"
        print(line, flush=True)


def memory_case(work, subweave, hours):
    """A `hours`-long programme (tiny video, mono speech): Subweave's peak memory, the decoder's
    excluded (it is another process)."""
    master, truth = programme(work, "memory", SENTENCES_EN, "en", hours * 60, seed=11, shuffle=True, video=("160x90", "5", []))
    srt = os.path.join(work, "memory.srt")
    write_srt(srt, [(a + 1.5, b + 1.5, t, i) for a, b, t, i in truth])
    wall, rss, out, code = timed([subweave, "sync", master, "--subtitle", f"url={srt},language=en", "--json"])
    found = json.loads(out)["tracks"][0]
    print(f"\n{hours} h programme ({len(truth)} cues): {found['verdict']} offset {found['offset_s']} in {wall:.1f} s, "
          f"peak memory {rss:.0f} MiB (Subweave's process alone; the ffmpeg decoders are their own)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=4)
    ap.add_argument("--long-minutes", type=float, default=0, help="also a realistic programme this long (0: none)")
    ap.add_argument("--memory-hours", type=float, default=0, help="also a programme this long for peak memory (0: none)")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-ffsubsync", action="store_true")
    ap.add_argument("--only-long", action="store_true", help="skip the short cases")
    args = ap.parse_args()
    subweave = release_subweave()
    ffsubsync = None if args.no_ffsubsync else shutil.which("ffsubsync")
    work = tempfile.mkdtemp(prefix="subweave-sync-bench-")
    try:
        if args.long_minutes:
            long_cases(work, subweave, ffsubsync, args.long_minutes)
        if args.memory_hours:
            memory_case(work, subweave, args.memory_hours)
        if args.only_long:
            return
        programmes = {
            "plain": programme(work, "plain", SENTENCES_EN, "en", args.minutes, seed=1),
            "intro+music": programme(work, "music", SENTENCES_EN, "en", args.minutes, intro=40, bed="music", seed=2),
            "noise, start 10 s": programme(work, "noise", SENTENCES_EN, "en", args.minutes, bed="noise", start_pts=10, seed=3),
            "french": programme(work, "french", SENTENCES_FR, "fr", args.minutes, seed=4),
        }
        other_master, other_truth = programme(work, "other", SENTENCES_OTHER, "en", args.minutes, seed=5)
        cases = []  # (programme, label, sidecar cues, expected verdict, offset, rate)
        for name, (master, truth) in programmes.items():
            shifts = [("in sync", 0.0, 1.0), ("+2.5 s", 2.5, 1.0), ("-0.8 s", -0.8, 1.0), ("+11 s", 11.0, 1.0), ("10:00:00 timecode", 36000.0, 1.0)]
            rates = [(f"rate {label}", 0.0, r) for label, r in [("25/23.976", 25 / FILM), ("23.976/25", FILM / 25), ("24/23.976", 24 / FILM),
                                                              ("25/24", 25 / 24), ("24/25", 24 / 25)]]
            for label, off, r in shifts + rates + [("rate 25/23.976 +1.2 s", 1.2, 25 / FILM)]:
                sidecar = [(r * a + off, r * b + off, text, ident) for a, b, text, ident in truth]
                verdict = "in_sync" if off == 0 and r == 1 else "offset" if r == 1 else "rate" if off == 0 else "rate_and_offset"
                cases.append((name, label, sidecar, verdict, off, r, truth, master))
            sidecar = [(a + 3.0, b + 3.0, text, ident) for a, b, text, ident in edited(truth, 7)]
            cases.append((name, "edited +3 s", sidecar, "offset", 3.0, 1.0, truth, master))
        # A sidecar of another programme.
        for name, (master, truth) in list(programmes.items())[:2]:
            cases.append((name, "another programme", other_truth, "no_match", None, None, None, master))

        rows, totals = [], {"ours_ok": 0, "ours_time": 0.0, "ffs_ok": 0.0, "ffs_time": 0.0, "verdicts": 0, "n": 0, "ffs_n": 0, "ours_acc": 0.0}
        for k, (name, label, sidecar, verdict, off, r, truth, master) in enumerate(cases):
            srt = os.path.join(work, f"case{k}.srt")
            write_srt(srt, sidecar)
            start = time.perf_counter()
            out = subprocess.run([subweave, "sync", master, "--subtitle", f"url={srt},language=en", "--json"], capture_output=True, text=True)
            ours_time = time.perf_counter() - start
            if out.returncode != 0:
                sys.exit(f"subweave sync failed: {out.stderr}")
            found = json.loads(out.stdout)["tracks"][0]
            right = found["verdict"] == verdict
            detail = f"{found['verdict']} offset {found['offset_s']} rate {found['rate']}"
            ours_acc = ffs_acc = None
            if truth is not None:
                reference = [None if ident is None else truth[ident][:2] for _, _, _, ident in sidecar]
                if found["offset_s"] is not None:
                    o, rr = found["offset_s"], found["rate"]
                    fixed = [((a - o) / rr, (b - o) / rr) for a, b, *_ in sidecar]
                else:
                    fixed = [(a, b) for a, b, *_ in sidecar]
                ours_acc = within(fixed, reference)
                if ffsubsync:
                    fixed_path = os.path.join(work, f"case{k}.ffs.srt")
                    start = time.perf_counter()
                    ffs = subprocess.run([ffsubsync, os.path.join(os.path.dirname(master), "whole.ts"), "-i", srt, "-o", fixed_path],
                                         capture_output=True, text=True)
                    ffs_time = time.perf_counter() - start
                    ffs_acc = within(read_srt(fixed_path), reference) if ffs.returncode == 0 and os.path.exists(fixed_path) else 0.0
                    totals["ffs_ok"] += ffs_acc
                    totals["ffs_time"] += ffs_time
                    totals["ffs_n"] += 1
                    totals["ours_acc"] += ours_acc
                    totals["ours_time"] += ours_time
            totals["verdicts"] += right
            totals["n"] += 1
            rows.append((name, label, verdict, right, detail, ours_acc, ours_time, ffs_acc, ffs_time if truth is not None and ffsubsync else None))
            pct = lambda x: "-" if x is None else f"{100 * x:5.1f}%"
            print(f"{name:18} {label:24} want {verdict:16} {'ok ' if right else 'BAD'} {detail:52} "
                  f"ours {pct(ours_acc)} {ours_time:5.2f}s  ffsubsync {pct(ffs_acc)} "
                  f"{'' if rows[-1][-1] is None else f'{rows[-1][-1]:5.2f}s'}", flush=True)
        print(f"\nverdicts right: {totals['verdicts']}/{totals['n']}")
        if totals["ffs_n"]:
            n = totals["ffs_n"]
            print(f"cues within 100 ms after the fix, mean over {n} cases: Subweave {100 * totals['ours_acc'] / n:.1f}%, "
                  f"ffsubsync {100 * totals['ffs_ok'] / n:.1f}%")
            print(f"time over those cases: Subweave {totals['ours_time']:.1f} s, ffsubsync {totals['ffs_time']:.1f} s, "
                  f"ffsubsync / Subweave {totals['ffs_time'] / totals['ours_time']:.1f}x")
    finally:
        if args.keep:
            print("kept", work)
        else:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
