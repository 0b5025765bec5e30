#!/usr/bin/env python3
"""The sync check on a varied set of programmes, next to ffsubsync in the same run, and the fit of
the confidence it states.

    python3 Benchmarks/sync-calibrate.py [--no-ffsubsync | --ffsubsync-on all] [--only NAME,...] [--keep] [--tsv FILE]
    python3 Benchmarks/sync-calibrate.py --refit FILE

ffsubsync runs on the held-out half only unless --ffsubsync-on all (it takes ten times as long as
the rest). --refit reads the rows a run wrote (--tsv, by default .build/sync-calibration.tsv), fits
the table on their training half and states the held-out confidences as that table would: the
curve a binary carrying the table prints, without running the programmes again.

Programmes (synclib.programme): espeak-ng in six languages and several voices, flite, festival's
HTS voice and a human voice (alsa-utils' recordings); no bed, a music bed, a noise bed, 30 s of
music without speech; irregular pauses, dense speech, a sentence every 4 s; 1 to 30 minutes. Half
are the training half (the confidence table is fitted on them), half are held out.

Sidecars of each: in sync; 40 ms late (in sync); shifted 0.3-3 s and 5-90 s; from a 10:00:00
timecode; two standard speed changes with an offset; edited (cues dropped, merged, split) and
shifted; cut (made for a version with a 20 s scene more: the cues after it 20 s late); its first
six cues only, or every third; timed by hand (starts up to 150 ms off, ends held); and the truth
of another programme, or of this one's sentences with other pauses (no match).

A verdict is *right* when it is a fix (or in sync) and its fix puts 90 % of the unedited cues
within 100 ms of the truth; when it is no_match for another programme's file; when it is partial
or ambiguous for a cut file; and when it is ambiguous with the truth among its candidates on evenly
spaced speech or a six-cue file. A *false fix* is a fix that leaves fewer than 90 % of cues within
100 ms (of another programme's file: any fix). ffsubsync has no verdict: its output is scored
the same way.

Prints each case, then per half: right verdicts, cues within 100 ms after the fix, false fixes,
for both tools; the calibration curve (stated confidence against the share right) on the held-out
half; and the Swift table for SyncCalibration fitted on the training half.
"""
import argparse, collections, json, os, random, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release_subweave  # noqa: E402
from synclib import FILM, SENTENCES, edited, programme, read_srt, within, write_srt  # noqa: E402

# name, language, engine, voice, spacing, bed, minutes, media clock start, half
PROGRAMMES = [
    ("en-espeak", "en", "espeak", "en", "irregular", None, 3, 0, "train"),
    ("en-f3-music", "en", "espeak", "en-us+f3", "irregular", "music", 2.5, 0, "test"),
    ("en-m3-even", "en", "espeak", "en+m3", "even", None, 2.5, 0, "train"),
    ("en-flite-noise", "en", "flite", "kal", "irregular", "noise", 5, 0, "test"),
    ("en-festival", "en", "festival", "slt", "irregular", None, 3, 0, "train"),
    ("en-festival-dense-music", "en", "festival", "slt", "dense", "music", 4, 0, "test"),
    ("fr-espeak", "fr", "espeak", "fr", "irregular", None, 2, 0, "train"),
    ("de-espeak-noise", "de", "espeak", "de", "irregular", "noise", 3, 0, "test"),
    ("es-espeak-dense", "es", "espeak", "es", "dense", None, 2.5, 0, "train"),
    ("it-espeak-musicgap", "it", "espeak", "it", "irregular", "musicgap", 4, 0, "test"),
    ("pt-espeak-even-noise", "pt", "espeak", "pt", "even", "noise", 2, 0, "train"),
    ("human", "human", "human", "alsa", "irregular", None, 2, 0, "test"),
    ("human-even", "human", "human", "alsa", "even", None, 1.5, 0, "train"),
    ("en-flite-musicgap", "en", "flite", "kal", "irregular", "musicgap", 5, 0, "train"),
    ("en-dense-noise-10min", "en", "espeak", "en", "dense", "noise", 10, 0, "test"),
    ("en-1min", "en", "espeak", "en", "irregular", None, 1, 0, "train"),
    ("fr-even-music-1min", "fr", "espeak", "fr", "even", "music", 1, 0, "test"),
    ("en-festival-noise-10min", "en", "festival", "slt", "irregular", "noise", 10, 0, "train"),
    ("de-dense-musicgap", "de", "espeak", "de", "dense", "musicgap", 5, 0, "train"),
    ("es-music-start10", "es", "espeak", "es", "irregular", "music", 3, 10, "test"),
    ("en-30min", "en", "espeak", "en", "irregular", None, 30, 0, "test"),
    ("human-dense-noise", "human", "human", "alsa", "dense", "noise", 3, 0, "train"),
    ("it-even", "it", "espeak", "it", "even", None, 3, 0, "test"),
    ("en-flite-even-music", "en", "flite", "kal", "even", "music", 2, 0, "test"),
    ("en-loud-noise", "en", "espeak", "en", "irregular", "loudnoise", 4, 0, "train"),
    ("fr-loud-music", "fr", "espeak", "fr+f2", "irregular", "loudmusic", 3, 0, "test"),
    ("en-festival-loud-noise", "en", "festival", "slt", "dense", "loudnoise", 3, 0, "test"),
    ("human-loud-music", "human", "human", "alsa", "irregular", "loudmusic", 2, 0, "train"),
]
RATES = {"25/23.976": 25 / FILM, "23.976/25": FILM / 25, "24/23.976": 24 / FILM, "23.976/24": FILM / 24, "25/24": 25 / 24, "24/25": 24 / 25}
FIXES = {"in_sync", "offset", "rate", "rate_and_offset"}


def sidecars(truth, other, similar, rnd):
    """(label, cues, truth: ('fix', rate, offset) | ('cut',) | ('other',)); `other` is another
    programme's truth, `similar` this programme's sentences with other pauses."""
    def moved(cues, rate, offset):
        return [(rate * a + offset, rate * b + offset, text, ident) for a, b, text, ident in cues]

    sign = lambda: rnd.choice([-1, 1])
    out = [("in sync", truth, ("fix", 1.0, 0.0)), ("40 ms late", moved(truth, 1, 0.04), ("fix", 1.0, 0.04))]
    o = sign() * rnd.uniform(0.3, 3)
    out.append((f"shift {o:+.2f}", moved(truth, 1, o), ("fix", 1.0, o)))
    o = sign() * rnd.uniform(5, 90)
    out.append((f"shift {o:+.1f}", moved(truth, 1, o), ("fix", 1.0, o)))
    o = 36000 + rnd.uniform(-2, 2)
    out.append(("10:00:00 timecode", moved(truth, 1, o), ("fix", 1.0, o)))
    for label in rnd.sample(sorted(RATES), 2):
        o = rnd.uniform(-2, 2)
        out.append((f"rate {label} {o:+.2f}", moved(truth, RATES[label], o), ("fix", RATES[label], o)))
    o = sign() * rnd.uniform(0.5, 5)
    out.append((f"edited {o:+.2f}", moved(edited(truth, rnd.randrange(1000)), 1, o), ("fix", 1.0, o)))
    point = truth[len(truth) * rnd.randint(3, 7) // 10][0] - 0.5
    cut = [(a + (20 if a > point else 0), b + (20 if a > point else 0), text, ident) for a, b, text, ident in truth]
    out.append((f"cut at {point:.0f} s", cut, ("cut",)))
    o = rnd.uniform(0.5, 3)
    out.append((f"six cues {o:+.2f}", moved(truth[:6], 1, o), ("fix", 1.0, o)))
    out.append(("another programme", [(a, b, text, None) for a, b, text, _ in other], ("other",)))
    if similar is not None:
        out.append(("same script, other pauses", [(a, b, text, None) for a, b, text, _ in similar], ("other",)))
    # As people time subtitles: each start up to 150 ms off the voice, each end held 0.4 s.
    o = sign() * rnd.uniform(0.3, 8)
    jittered = [(a + max(-0.15, min(0.15, rnd.gauss(0, 0.06))), b + 0.4, text, ident) for a, b, text, ident in truth]
    out.append((f"hand-timed {o:+.2f}", moved(jittered, 1, o), ("fix", 1.0, o, jittered)))
    o = sign() * rnd.uniform(0.3, 8)
    out.append((f"every third {o:+.2f}", moved(truth[::3], 1, o), ("fix", 1.0, o)))
    return out


def score(verdict, offset, rate, candidates, cues, truth, reference, even, six):
    """('right' | 'safe' | 'false fix', share of unedited cues within 100 ms after the tool's fix)."""
    fixed = [((a - offset) / rate, (b - offset) / rate) for a, b, *_ in cues] if verdict in FIXES else [(a, b) for a, b, *_ in cues]
    kind = truth[0]
    if kind == "fix":
        acc = within(fixed, reference)
        if verdict in FIXES:
            return ("right" if acc >= 0.9 else "false fix"), acc
        if verdict == "ambiguous" and (even or six):
            _, r, o, *_ = truth
            hit = any(abs(c["rate"] / r - 1) < 0.0005 and abs(c["offset_s"] - o) <= 0.1 for c in candidates)
            return ("right" if hit or six else "safe"), acc
        return "safe", acc
    if kind == "other":
        return ("right" if verdict == "no_match" else "false fix" if verdict in FIXES else "safe"), None
    # Cut: no single fix holds; a fix is false unless 90 % of cues land anyway.
    if verdict in FIXES:
        return ("right" if within(fixed, reference) >= 0.9 else "false fix"), None
    return ("right" if verdict in ("partial", "ambiguous") else "safe"), None


def ffsubsync_score(path, truth, reference, cues):
    """ffsubsync's output scored as a fix."""
    if not os.path.exists(path):
        return "safe", 0.0
    fixed = read_srt(path)
    if len(fixed) != len(cues):
        return "false fix", 0.0
    moved = sum(1 for (a, *_), (x, *_) in zip(cues, fixed) if abs(a - x) > 0.1) > len(cues) / 2
    if truth[0] == "fix":
        acc = within(fixed, reference)
        return ("right" if acc >= 0.9 else "false fix"), acc
    if truth[0] == "other":
        return ("false fix" if moved else "safe"), None
    acc = within(fixed, reference)
    return ("right" if acc >= 0.9 else "false fix" if moved else "safe"), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-ffsubsync", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated programme names")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--ffsubsync-on", choices=["test", "all"], default="test")
    ap.add_argument("--refit", metavar="TSV")
    ap.add_argument("--tsv", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "sync-calibration.tsv"))
    args = ap.parse_args()
    if args.refit:
        return refit(args.refit)
    subweave = release_subweave()
    ffsubsync = None if args.no_ffsubsync else shutil.which("ffsubsync")
    work = tempfile.mkdtemp(prefix="subweave-sync-calibrate-")
    chosen = [p for p in PROGRAMMES if not args.only or p[0] in args.only.split(",")]
    rows = []
    try:
        def make(p, truth_only=False):
            name, language, engine, voice, spacing, bed, minutes, start, half = p
            index = PROGRAMMES.index(p)
            return programme(work, name, SENTENCES[language], voice, minutes, intro=3.0, bed=bed, start_pts=start, seed=index + 1,
                             shuffle=minutes > 5, engine=engine, spacing=spacing, whole=bool(ffsubsync), truth_only=truth_only)

        made = {}
        for p in chosen:
            started = time.perf_counter()
            made[p[0]] = make(p)
            print(f"made {p[0]}: {len(made[p[0]][1])} cues in {time.perf_counter() - started:.1f} s", flush=True)
        for p in chosen:
            name, language, engine, voice, spacing, bed, minutes, start, half = p
            index = PROGRAMMES.index(p)
            master, truth = made[name]
            # Another programme's file: the truth of the next programme of the list.
            other = make(PROGRAMMES[(index + 1) % len(PROGRAMMES)], truth_only=True)[1]
            # (Evenly spaced speech has the same starts whatever the pauses: no such file.)
            similar = None if spacing == "even" else programme(work, name + "-similar", SENTENCES[language], voice, minutes, intro=3.0,
                                                               seed=index + 500, shuffle=minutes > 5, engine=engine, spacing=spacing,
                                                               truth_only=True)[1]
            rnd = random.Random(1000 + index)
            for k, (label, cues, want) in enumerate(sidecars(truth, other, similar, rnd)):
                srt = os.path.join(work, f"{name}-{k}.srt")
                write_srt(srt, cues)
                reference = None
                if want[0] == "fix" and len(want) == 4:
                    reference = [(a, b) for a, b, *_ in want[3]]
                elif want[0] == "fix":
                    reference = [None if ident is None else truth[ident][:2] for *_, ident in cues]
                elif want[0] == "cut":
                    reference = [truth[ident][:2] for *_, ident in cues]
                started = time.perf_counter()
                out = subprocess.run([subweave, "sync", master, "--subtitle", f"url={srt},language=en", "--json"], capture_output=True, text=True)
                ours_time = time.perf_counter() - started
                if out.returncode != 0:
                    sys.exit(f"subweave sync failed on {name} {label}: {out.stderr}")
                found = json.loads(out.stdout)["tracks"][0]
                verdict = found["verdict"]
                result, acc = score(verdict, found["offset_s"], found["rate"], found["candidates"], cues, want, reference,
                                    spacing == "even", label.startswith("six"))
                ffs = (None, None, None)
                if ffsubsync and (args.ffsubsync_on == "all" or half == "test"):
                    fixed = os.path.join(work, f"{name}-{k}.ffs.srt")
                    started = time.perf_counter()
                    subprocess.run([ffsubsync, os.path.join(os.path.dirname(master), "whole.ts"), "-i", srt, "-o", fixed], capture_output=True)
                    ffs = (*ffsubsync_score(fixed, want, reference, cues), time.perf_counter() - started)
                row = dict(half=half, programme=name, case=label, want=want[0], verdict=verdict, result=result, acc=acc,
                           confidence=found["confidence"], landed=found["landed_share"], measured=found["cues_measured"],
                           chance=found.get("chance_share"), margin=found.get("margin"), time=ours_time,
                           ffs_result=ffs[0], ffs_acc=ffs[1], ffs_time=ffs[2])
                rows.append(row)
                pct = lambda x: "   -  " if x is None else f"{100 * x:5.1f}%"
                print(f"{half:5} {name:26} {label:22} {verdict:16} {result:9} {pct(acc)} conf {found['confidence']:.2f} "
                      f"landed {found['landed_share']} of {found['cues_measured']} | ffsubsync {ffs[0] or '-':9} {pct(ffs[1])}", flush=True)
        with open(args.tsv, "w") as f:
            keys = list(rows[0])
            f.write("\t".join(keys) + "\n")
            for row in rows:
                f.write("\t".join("" if row[k] is None else str(row[k]) for k in keys) + "\n")
        report(rows, bool(ffsubsync))
        print("\nSyncCalibration, fitted on the training half:\n" + fit_table([r for r in rows if r["half"] == "train"]))
    finally:
        if args.keep:
            print("kept", work)
        else:
            shutil.rmtree(work)


# The bins of the confidence table (SyncCalibration): a fix by its margin and lift over chance, a
# no_match by its best fit's lift; ambiguous and partial verdicts one value each.
MARGINS = [0.3, 0.6, 0.8, 1.01]
LIFTS = [0.5, 0.7, 1.01]
FIX_VERDICTS = {"in_sync", "offset", "rate", "rate_and_offset"}


def bin_of(value, edges):
    return next(i for i, e in enumerate(edges) if value < e or i == len(edges) - 1)


def fit_values(rows):
    """The share right per bin on `rows` (Laplace-smoothed towards the verdict's own share):
    (fix table, no_match row, ambiguous, partial)."""
    def share(subset, prior, weight=2):
        right = sum(r["result"] == "right" for r in subset)
        return round((right + weight * prior) / (len(subset) + weight), 3)

    fixes = [r for r in rows if r["verdict"] in FIX_VERDICTS]
    prior = share(fixes, 0.5)
    table = [[share([r for r in fixes if bin_of(r["margin"], MARGINS) == m and bin_of(r["landed"] - r["chance"], LIFTS) == l], prior)
              for l in range(len(LIFTS))] for m in range(len(MARGINS))]
    nomatch = [r for r in rows if r["verdict"] == "no_match"]
    prior_nm = share(nomatch, 0.5)
    nm = [share([r for r in nomatch if bin_of((r["landed"] or 0) - (r["chance"] or 0), [0.2, 0.3, 1.01]) == b], prior_nm) for b in range(3)]
    ambiguous = share([r for r in rows if r["verdict"] == "ambiguous"], 0.5)
    partial = share([r for r in rows if r["verdict"] == "partial"], 0.5)
    return table, nm, ambiguous, partial


def fit_table(rows):
    """fit_values(rows) as Swift for SyncCalibration."""
    table, nm, ambiguous, partial = fit_values(rows)
    lines = ["    /// A fix, by margin (rows: below " + ", ".join(map(str, MARGINS[:-1])) + ", above) and lift over chance (columns: below "
             + ", ".join(map(str, LIFTS[:-1])) + ", above).", "    static let fix: [[Double]] = ["]
    lines += [f"        {row}," for row in table] + ["    ]"]
    lines += [f"    /// no_match, by the best fit's lift over chance (below 0.2, below 0.3, above).", f"    static let noMatch: [Double] = {nm}",
              f"    static let ambiguous = {ambiguous}", f"    static let partial = {partial}"]
    return "\n".join(lines)


def refit(path):
    """Fits the table on the training rows of `path` and restates every row's confidence by it."""
    with open(path) as f:
        keys = f.readline().rstrip("\n").split("\t")
        rows = []
        for line in f:
            row = dict(zip(keys, line.rstrip("\n").split("\t")))
            for k in ("acc", "confidence", "landed", "chance", "margin", "time", "ffs_acc", "ffs_time"):
                row[k] = float(row[k]) if row.get(k) not in (None, "") else None
            for k in ("ffs_result",):
                row[k] = row[k] or None
            rows.append(row)
    table = fit_values([r for r in rows if r["half"] == "train"])
    for r in rows:
        r["confidence"] = confidence(r, table)
    report(rows, any(r["ffs_result"] for r in rows))
    print("\nSyncCalibration, fitted on the training half:\n" + fit_table([r for r in rows if r["half"] == "train"]))


def confidence(row, table):
    """The confidence SyncCalibration states for `row`'s verdict under `table` (fit_values)."""
    fix, nm, ambiguous, partial = table
    lift = (row["landed"] or 0) - (row["chance"] or 0)
    if row["verdict"] in FIX_VERDICTS:
        return fix[bin_of(row["margin"], MARGINS)][bin_of(lift, LIFTS)]
    if row["verdict"] == "no_match":
        return nm[bin_of(lift, [0.2, 0.3, 1.01])]
    return ambiguous if row["verdict"] == "ambiguous" else partial


def report(rows, with_ffsubsync):
    for half in ("train", "test"):
        mine = [r for r in rows if r["half"] == half]
        if not mine:
            continue
        fixable = [r for r in mine if r["acc"] is not None]
        count = collections.Counter(r["result"] for r in mine)
        print(f"\n{half}: {len(mine)} sidecars")
        fixed = [r["acc"] for r in fixable if r["verdict"] in FIXES]
        print(f"  Subweave:  right {count['right']}/{len(mine)}, false fixes {count['false fix']}, "
              f"cues within 100 ms after the fix {100 * sum(r['acc'] for r in fixable) / max(1, len(fixable)):.1f} % (mean of {len(fixable)} "
              f"fixable sidecars; {100 * sum(fixed) / max(1, len(fixed)):.1f} % over the {len(fixed)} it fixed), "
              f"{sum(r['time'] for r in mine):.1f} s")
        if with_ffsubsync:
            ran = [r for r in mine if r["ffs_result"]]
            ffs = collections.Counter(r["ffs_result"] for r in ran)
            accs = [r["ffs_acc"] for r in fixable if r["ffs_acc"] is not None and r["ffs_result"]]
            if ran:
                print(f"  ffsubsync: right {ffs['right']}/{len(ran)}, false fixes {ffs['false fix']}, "
                      f"cues within 100 ms after the fix {100 * sum(accs) / max(1, len(accs)):.1f} % (mean of {len(accs)}), "
                      f"{sum(r['ffs_time'] or 0 for r in ran):.1f} s")
        print("  stated confidence → share right:")
        for low, high in [(0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.01)]:
            bin = [r for r in mine if low <= r["confidence"] < high]
            if bin:
                print(f"    [{low:.2f}, {min(high, 1):.2f}): {len(bin):3} verdicts, {sum(r['result'] == 'right' for r in bin) / len(bin):.3f} right")
        by = collections.defaultdict(collections.Counter)
        for r in mine:
            by[r["verdict"]][r["result"]] += 1
        print("  by verdict: " + "; ".join(f"{v} {dict(c)}" for v, c in sorted(by.items())))


if __name__ == "__main__":
    main()
