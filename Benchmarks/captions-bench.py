#!/usr/bin/env python3
"""CEA-608 and CEA-708 benchmark: a long captioned MPEG-TS (>= 1 GiB, built by looping a re-encoded copy of
Fixtures/captions/programme.ts), read by the release-built `subweave` for detection
(`captions --detect`, a bounded look of 1,800 access units) and full decoding (`captions --json`),
as MPEG-TS and remuxed to fragmented MP4, next to ffmpeg on the same files in the same run
(detection: decoding the same 1,800 frames; decoding: the subcc path, `movie=FILE[out+subcc]`).
The same TS cut into an HLS presentation (6 s segments) is packaged (`package --dry-run`, no
side-loaded track): the cost of deciding the caption services from the whole programme, against
`cat` of its segments. A second long TS of the same size carries CEA-708 too (two DTVCC services
added to every access unit's cc_data by Benchmarks/dtvcc_inject.py, no B-frames): its full decode
against `cat` in the same run. A 256 MiB file of the same content shows whether memory stays flat as the
input grows.

    python3 Benchmarks/captions-bench.py [--size-mib 1024] [--keep] [--build installed|dynamic]

Times the binary Scripts/install.sh installs (the Swift runtime and Foundation linked statically:
it starts in half the time of the build that loads them as shared libraries), or with
`--build dynamic` the plain `swift build -c release` one.

Reports wall time (the median of nine runs for each `cat` and the Subweave job timed against it,
alternated run by run so that both see the same load; the median of five for the fMP4 decode;
one run of ffmpeg's),
throughput (MiB/s) and peak memory (ru_maxrss via wait4), and the ratios Subweave / ffmpeg and
Subweave / cat. The machine is shared: compare the ratios, not the seconds.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, release_subweave, run  # noqa: E402



def loop_to(clip, target, size_mib):
    clip_size = os.path.getsize(clip)
    loops = max(1, (size_mib * 1024 * 1024) // clip_size)
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-stream_loop", str(loops), "-i", clip,
                    "-c", "copy", "-f", "mpegts", target], check=True)
    return os.path.getsize(target)


def median_run(cmd, times=5, stdout=None):
    """`times` runs of cmd: the median wall time and the largest peak memory."""
    runs = []
    for _ in range(times):
        if stdout is None:
            with open(os.devnull, "w") as null:
                runs.append(run(cmd, stdout=null))
        else:
            with open(stdout, "w") as out:
                runs.append(run(cmd, stdout=out))
    return sorted(w for w, _ in runs)[len(runs) // 2], max(m for _, m in runs)


def alternated(floor_cmd, cmd, times=9, stdout=None):
    """`times` runs each of floor_cmd and cmd, alternated run by run so that both see the same
    load: each one's median wall time and largest peak memory."""
    floors, ours = [], []
    for _ in range(times):
        with open(os.devnull, "w") as null:
            floors.append(run(floor_cmd, stdout=null))
        with open(stdout or os.devnull, "w") as out:
            ours.append(run(cmd, stdout=out))
    def summary(runs):
        return sorted(w for w, _ in runs)[len(runs) // 2], max(m for _, m in runs)
    return summary(floors), summary(ours)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--build", choices=["installed", "dynamic"], default="installed")
    args = ap.parse_args()

    subweave = release_subweave(static=args.build == "installed")
    work = tempfile.mkdtemp(prefix="subweave-cc-bench-")
    try:
        # A broadcast-like clip: 960x540 at about 6 Mbit/s; x264 carries the A/53 captions over (a53cc).
        clip = os.path.join(work, "clip.ts")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", os.path.join(ROOT, "Fixtures/captions/programme.ts"),
                        "-vf", "scale=960:540", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "6M", "-bf", "3",
                        "-a53cc", "1", "-f", "mpegts", clip], check=True)
        small = os.path.join(work, "small.ts")
        big = os.path.join(work, "big.ts")
        small_size = loop_to(clip, small, max(64, args.size_mib // 4))
        big_size = loop_to(clip, big, args.size_mib)

        # The same content as fragmented MP4 (CMAF-style fragments, one per keyframe).
        big_mp4 = os.path.join(work, "big.mp4")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", big, "-map", "0:v", "-c", "copy",
                        "-movflags", "+frag_keyframe+empty_moov+default_base_moof", big_mp4], check=True)

        results = {}
        # The page-cache floor: reading the file and nothing else.
        with open(os.devnull, "w") as null:
            run(["cat", big], stdout=null)  # warm
        results["cat"], results["decode_subweave"] = alternated(["cat", big], [subweave, "captions", "--json", big],
                                                                stdout=os.path.join(work, "ours.json"))
        results["detect_subweave"] = run([subweave, "captions", "--detect", "--json", big])
        results["detect_ffmpeg"] = run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", big, "-frames:v", "1800", "-f", "null", "-"])
        results["decode_subweave_small"] = run([subweave, "captions", "--json", small])
        with open(os.path.join(work, "ffmpeg.srt"), "w") as out:
            results["decode_ffmpeg"] = run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", f"movie={big}[out+subcc]",
                                            "-map", "0:s", "-f", "srt", "-"], stdout=out)
        results["detect_subweave_fmp4"] = run([subweave, "captions", "--detect", "--json", big_mp4])
        results["detect_ffmpeg_fmp4"] = run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", big_mp4, "-frames:v", "1800", "-f", "null", "-"])
        results["decode_subweave_fmp4"] = median_run([subweave, "captions", "--json", big_mp4], stdout=os.path.join(work, "ours-fmp4.json"))
        with open(os.path.join(work, "ffmpeg-fmp4.srt"), "w") as out:
            results["decode_ffmpeg_fmp4"] = run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", f"movie={big_mp4}[out+subcc]",
                                                 "-map", "0:s", "-f", "srt", "-"], stdout=out)
        # The whole-programme decision the packager takes: the TS as an HLS presentation.
        hls = os.path.join(work, "hls")
        os.makedirs(hls)
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", big, "-map", "0:v", "-c", "copy", "-f", "hls",
                        "-hls_time", "6", "-hls_playlist_type", "vod", "-hls_segment_filename", os.path.join(hls, "s%05d.ts"),
                        os.path.join(hls, "prog.m3u8")], check=True)
        with open(os.path.join(hls, "master.m3u8"), "w") as f:
            f.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=6000000,CODECS=\"avc1.64001f\",RESOLUTION=960x540\nprog.m3u8\n")
        segments = sorted(os.path.join(hls, n) for n in os.listdir(hls) if n.endswith(".ts"))
        with open(os.devnull, "w") as null:
            run(["cat"] + segments, stdout=null)  # warm
        results["cat_segments"], results["package_scan"] = alternated(["cat"] + segments,
                                                                      [subweave, "package", os.path.join(hls, "master.m3u8"), "--dry-run", "--json"])
        # CEA-708: the same programme with two DTVCC services added, looped to the same size.
        clip0 = os.path.join(work, "clip-nobf.ts")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", os.path.join(ROOT, "Fixtures/captions/programme.ts"),
                        "-vf", "scale=960:540", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "6M", "-bf", "0", "-x264-params", "aud=1",
                        "-a53cc", "1", "-f", "mpegts", clip0], check=True)
        clip708 = os.path.join(work, "clip708.ts")
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/dtvcc_inject.py"), clip0, clip708], check=True)
        big708 = os.path.join(work, "big708.ts")
        big708_size = loop_to(clip708, big708, args.size_mib)
        with open(os.devnull, "w") as null:
            run(["cat", big708], stdout=null)  # warm
        results["cat_708"], results["decode_subweave_708"] = alternated(["cat", big708], [subweave, "captions", "--json", big708],
                                                                        stdout=os.path.join(work, "ours-708.json"))
        with open(os.path.join(work, "ours-708.json")) as f:
            ours708 = json.load(f)
        with open(os.path.join(work, "ours.json")) as f:
            ours = json.load(f)
        with open(os.path.join(work, "ours-fmp4.json")) as f:
            ours_fmp4 = json.load(f)
        cc1 = next((s for s in ours["services"] if s["service"] == "CC1"), {"cues": []})
        with open(os.path.join(work, "ffmpeg.srt")) as f:
            ffmpeg_cues = f.read().count(" --> ")

        mib = big_size / 2**20
        report = {
            "binary": subweave,
            "file_mib": round(mib, 1),
            "small_file_mib": round(small_size / 2**20, 1),
            "cc1_cues_subweave": len(cc1["cues"]),
            "cc1_cues_ffmpeg": ffmpeg_cues,
            "fmp4_mib": round(os.path.getsize(big_mp4) / 2**20, 1),
            "cc1_cues_subweave_fmp4": len(next((s for s in ours_fmp4["services"] if s["service"] == "CC1"), {"cues": []})["cues"]),
        }
        with open(os.path.join(work, "ffmpeg-fmp4.srt")) as f:
            report["cc1_cues_ffmpeg_fmp4"] = f.read().count(" --> ")
        for key, (wall, rss) in results.items():
            report[key] = {"wall_s": round(wall, 3), "peak_rss_mib": round(rss, 1)}
        report["decode_subweave"]["mib_per_s"] = round(mib / results["decode_subweave"][0], 1)
        report["decode_ffmpeg"]["mib_per_s"] = round(mib / results["decode_ffmpeg"][0], 1)
        report["cat"]["mib_per_s"] = round(mib / results["cat"][0], 1)
        report["ratio_decode_to_cat"] = round(results["decode_subweave"][0] / results["cat"][0], 2)
        report["ratio_decode_time"] = round(results["decode_subweave"][0] / results["decode_ffmpeg"][0], 4)
        report["ratio_decode_memory"] = round(results["decode_subweave"][1] / results["decode_ffmpeg"][1], 3)
        report["ratio_detect_time"] = round(results["detect_subweave"][0] / results["detect_ffmpeg"][0], 3)
        fmib = os.path.getsize(big_mp4) / 2**20
        report["decode_subweave_fmp4"]["mib_per_s"] = round(fmib / results["decode_subweave_fmp4"][0], 1)
        report["decode_ffmpeg_fmp4"]["mib_per_s"] = round(fmib / results["decode_ffmpeg_fmp4"][0], 1)
        report["ratio_decode_time_fmp4"] = round(results["decode_subweave_fmp4"][0] / results["decode_ffmpeg_fmp4"][0], 4)
        report["ratio_decode_memory_fmp4"] = round(results["decode_subweave_fmp4"][1] / results["decode_ffmpeg_fmp4"][1], 3)
        report["ratio_detect_time_fmp4"] = round(results["detect_subweave_fmp4"][0] / results["detect_ffmpeg_fmp4"][0], 3)
        report["hls_segments"] = len(segments)
        report["ratio_package_scan_to_cat"] = round(results["package_scan"][0] / results["cat_segments"][0], 2)
        report["memory_growth_small_to_big"] = round(results["decode_subweave"][1] / results["decode_subweave_small"][1], 3)
        report["file_708_mib"] = round(big708_size / 2**20, 1)
        report["cues_708"] = {s["service"]: len(s["cues"]) for s in ours708["services"]}
        report["ratio_decode_to_cat_708"] = round(results["decode_subweave_708"][0] / results["cat_708"][0], 2)
        print(json.dumps(report, indent=2))
    finally:
        if args.keep:
            print("kept", work)
        else:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
