#!/usr/bin/env python3
"""Scale benchmark: is packaging linear in segments x languages, with memory bounded however many
languages there are?

Two titles, packaged by the release-built `subweave` in the same run, alternately:
  small: 100 minutes (1,000 x 6 s segments), 10 SubRip languages of 1,500 cues;
  large: 10 hours (6,000 x 6 s segments), 20 SubRip languages of 9,000 cues (the same cue density).
The large title has 12x the segment files and 12x the cues of the small one, so a linear packager
takes about 12x the time. Prints the time ratio large/small, that ratio per unit of work
(segments x languages), and the peak memory of each (ru_maxrss).

    python3 Benchmarks/scale-bench.py [--runs 3] [--keep]

Needs: swift, ffmpeg (one real 6 s MPEG-TS segment).
"""
import argparse, json, os, shutil, statistics, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import floor_binary, make_title, package_copy, release_subweave, run_floor  # noqa: E402

LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "pl", "ja",
             "da", "fi", "nb", "cs", "hu", "ro", "el", "tr", "ko", "zh"]
TITLES = {"small": (1000, LANGUAGES[:10], 1500), "large": (6000, LANGUAGES, 9000)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    subweave = release_subweave()
    work = tempfile.mkdtemp(prefix="subweave-scale-")
    inputs = {name: make_title(work, segments, languages, cues, name=name) for name, (segments, languages, cues) in TITLES.items()}
    floor = floor_binary(work)
    times = {name: [] for name in TITLES}
    floors = {name: [] for name in TITLES}
    for r in range(args.runs):
        for name, (_, languages, _) in TITLES.items():
            hls, subs = inputs[name]
            copy = os.path.join(work, f"{name}-run{r}")
            times[name].append(package_copy(subweave, hls, subs, languages, copy))
            # The I/O floor: the same files written the same way by a C program (Benchmarks/io-floor.c),
            # after Subweave's output is removed (run_floor says why).
            floors[name].append(run_floor(floor, copy, os.path.join(work, f"{name}-floor{r}")))
    result = {}
    for name, (segments, languages, cues) in TITLES.items():
        result[name] = {"segments": segments, "languages": len(languages), "cues_per_language": cues,
                        "wall_s": statistics.median(w for w, _ in times[name]),
                        "peak_rss_mib": max(m for _, m in times[name]),
                        "io_floor_s": statistics.median(w for w, _ in floors[name])}
        result[name]["ratio_to_floor"] = round(result[name]["wall_s"] / result[name]["io_floor_s"], 2)
        # Each run over the floor run right after it (slow and fast minutes fall on both sides).
        result[name]["paired_ratio_to_floor"] = round(statistics.median(t / f for (t, _), (f, _) in zip(times[name], floors[name])), 2)
    work_ratio = (result["large"]["segments"] * result["large"]["languages"]) / (result["small"]["segments"] * result["small"]["languages"])
    result["time_ratio"] = result["large"]["wall_s"] / result["small"]["wall_s"]
    result["time_ratio_per_unit_of_work"] = result["time_ratio"] / work_ratio
    print(json.dumps(result, indent=2))
    print(f"\nsmall {result['small']['wall_s']:.2f} s, {result['small']['peak_rss_mib']:.1f} MiB; "
          f"large {result['large']['wall_s']:.2f} s, {result['large']['peak_rss_mib']:.1f} MiB; "
          f"time large/small {result['time_ratio']:.2f} for {work_ratio:.0f}x the work "
          f"({result['time_ratio_per_unit_of_work']:.2f} per unit: 1.00 is linear); "
          f"I/O floor small {result['small']['io_floor_s']:.2f} s (x{result['small']['ratio_to_floor']}; run by run "
          f"x{result['small']['paired_ratio_to_floor']}), large {result['large']['io_floor_s']:.2f} s (x{result['large']['ratio_to_floor']}; "
          f"run by run x{result['large']['paired_ratio_to_floor']})")
    if args.keep:
        print("inputs kept in", work)
    else:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
