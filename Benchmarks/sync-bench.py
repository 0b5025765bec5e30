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
import argparse, json, math, os, random, shutil, subprocess, sys, tempfile, time, wave

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, release_subweave  # noqa: E402

RATE = 16000
FILM = 24000 / 1001
SENTENCES_EN = [
    "The morning train left the station exactly on time.", "Nobody on the platform noticed the small brown dog.",
    "It followed a woman in a green coat onto the last carriage.", "At the next stop a conductor asked for tickets.",
    "The dog sat quietly under a seat and watched the fields.", "Outside the window the river turned toward the hills.",
    "A boy with a kite waved at the passing carriages.", "The woman opened a newspaper and read about the weather.",
    "Rain was expected in the afternoon across the valley.", "She folded the paper and looked for her umbrella.",
    "The dog yawned and rested its head on her shoe.", "When the train reached the city the sky was grey.",
    "Porters pushed their carts along the crowded platform.", "The woman stepped down and the dog followed her again.",
    "She laughed and bought it a sandwich from a stall.", "They walked together toward the bridge over the water.",
]
SENTENCES_FR = [
    "Le train du matin a quitté la gare à l'heure.", "Personne sur le quai n'a remarqué le petit chien brun.",
    "Il a suivi une femme en manteau vert jusqu'au dernier wagon.", "Au prochain arrêt un contrôleur a demandé les billets.",
    "Le chien s'est assis sous un siège et regardait les champs.", "Dehors la rivière tournait vers les collines.",
    "Un garçon avec un cerf-volant saluait les wagons.", "La femme a ouvert un journal et a lu la météo.",
]
SENTENCES_OTHER = [
    "Preheat the oven and grease a round baking tin.", "Mix the flour, the sugar and a pinch of salt.",
    "Beat three eggs with a cup of warm milk.", "Pour the batter into the tin and smooth the top.",
    "Bake for forty minutes until the crust is golden.", "Let it cool before you cut the first slice.",
    "Serve it with fresh berries and a spoon of cream.", "Keep what is left in a tin for two days.",
]


def speak(text, voice):
    with tempfile.NamedTemporaryFile(suffix=".wav") as f:
        subprocess.run(["espeak-ng", "-v", voice, "-s", "165", "-w", f.name, text], check=True)
        with wave.open(f.name) as w:
            rate, data = w.getframerate(), np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    # Resample to 16 kHz (linear) and cut the silence espeak-ng adds around the sound.
    x = np.interp(np.arange(0, len(data), rate / RATE), np.arange(len(data)), data.astype(np.float64))
    loud = np.nonzero(np.abs(x) > 300)[0]
    return x[loud[0]:loud[-1] + 1] if len(loud) else x


def programme(work, name, sentences, voice, minutes, intro=3.0, bed=None, start_pts=0.0, seed=1, shuffle=False,
              video=("160x90", "25", []), audio=("64k", 1)):
    """An HLS programme of `sentences` repeated to fill `minutes` (in a random order when
    `shuffle`); `video` is (size, rate, extra x264 options), `audio` (bitrate, channels);
    returns (master, truth cues)."""
    rnd = random.Random(seed)
    total = minutes * 60
    sound = np.zeros(int(total * RATE), dtype=np.float32)
    truth, t, i = [], intro, 0
    cache = {}
    while True:
        text = rnd.choice(sentences) if shuffle else sentences[i % len(sentences)]
        clip = cache.setdefault(text, speak(text, voice))
        if t + len(clip) / RATE > total - 2:
            break
        start = int(t * RATE)
        sound[start:start + len(clip)] += clip
        truth.append((t, t + len(clip) / RATE, text, len(truth)))
        t += len(clip) / RATE + rnd.uniform(0.5, 2.5)
        i += 1
    if bed == "music":
        n = np.arange(len(sound)) / RATE
        chord = sum(np.sin(2 * np.pi * f * n) for f in (196.0, 246.9, 293.7, 392.0))
        sound += (1500 * (0.7 + 0.3 * np.sin(2 * np.pi * 0.1 * n)) * chord).astype(np.float32)
    elif bed == "noise":
        sound += np.random.default_rng(seed).normal(0, 700, len(sound)).astype(np.float32)
    folder = os.path.join(work, name)
    os.makedirs(folder)
    wav = os.path.join(folder, "sound.wav")
    with wave.open(wav, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
        w.writeframes(np.clip(sound, -32767, 32767).astype(np.int16).tobytes())
    offset = ["-output_ts_offset", str(start_pts)] if start_pts else []
    size, fps, x264 = video
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={fps}",
                    "-i", wav, "-t", str(total), "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", str(2 * int(fps))]
                   + x264 + ["-c:a", "aac", "-b:a", audio[0], "-ac", str(audio[1]), "-ar", "48000"] + offset + ["-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod",
                   "-hls_segment_filename", os.path.join(folder, "seg_%03d.ts"), os.path.join(folder, "prog.m3u8")], check=True)
    with open(os.path.join(folder, "master.m3u8"), "w") as f:
        f.write('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.64000d,mp4a.40.2",RESOLUTION=160x90\nprog.m3u8\n')
    # One file of the whole programme for ffsubsync, which reads a media file.
    with open(os.path.join(folder, "whole.ts"), "wb") as out:
        for seg in sorted(p for p in os.listdir(folder) if p.endswith(".ts") and p.startswith("seg_")):
            with open(os.path.join(folder, seg), "rb") as s:
                shutil.copyfileobj(s, out)
    return os.path.join(folder, "master.m3u8"), truth


def srt_time(t):
    ms = max(0, int(round(t * 1000)))
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def write_srt(path, cues):
    with open(path, "w") as f:
        for k, (a, b, text, *_) in enumerate(cues, 1):
            f.write(f"{k}\n{srt_time(a)} --> {srt_time(b)}\n{text}\n\n")


def read_srt(path):
    cues = []
    for block in open(path, encoding="utf-8", errors="replace").read().replace("\r\n", "\n").split("\n\n"):
        lines = [l for l in block.split("\n") if l.strip()]
        timing = next((l for l in lines if "-->" in l), None)
        if not timing:
            continue
        def sec(s):
            h, m, rest = s.strip().replace(".", ",").split(":")
            secs, ms = rest.split(",")
            return int(h) * 3600 + int(m) * 60 + int(secs) + int(ms) / 1000
        a, b = timing.split("-->")
        cues.append((sec(a), sec(b.split()[0]), " ".join(lines[lines.index(timing) + 1:])))
    return cues


def edited(truth, seed):
    """10 % of cues dropped, 10 % merged with the next, 10 % split in two (those lose their id)."""
    rnd = random.Random(seed)
    out, i = [], 0
    while i < len(truth):
        a, b, text, ident = truth[i]
        roll = rnd.random()
        if roll < 0.1:
            i += 1
            continue
        if roll < 0.2 and i + 1 < len(truth):
            out.append((a, truth[i + 1][1], text + " " + truth[i + 1][2], None))
            i += 2
            continue
        if roll < 0.3:
            mid = (a + b) / 2
            out += [(a, mid, text[: len(text) // 2], None), (mid, b, text[len(text) // 2:], None)]
        else:
            out.append((a, b, text, ident))
        i += 1
    return out


def within(fixed, reference, tolerance=0.1):
    """The share of the sidecar's unedited cues (`reference`: per sidecar cue, its true start and
    end, or None for a cue an editor merged or split) whose fixed cue (`fixed`, in the sidecar's
    order: both fixes keep every cue and its order) starts and ends within `tolerance`."""
    pairs = [(r, f) for r, f in zip(reference, fixed) if r is not None]
    good = sum(1 for (a, b), (x, y, *_) in pairs if abs(x - a) <= tolerance and abs(y - b) <= tolerance)
    counted = sum(1 for r in reference if r is not None)
    return good / counted if counted else 0


def timed(cmd):
    """(wall seconds, peak resident memory of that process alone in MiB — VmHWM from /proc, read
    every 10 ms until it exits; the decoders it starts are other processes — stdout, exit code)."""
    out = tempfile.TemporaryFile()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.01)
    wall = time.perf_counter() - start
    out.seek(0)
    return wall, peak / 1024, out.read().decode(errors="replace"), proc.returncode


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
