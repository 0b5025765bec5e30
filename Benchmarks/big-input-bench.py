#!/usr/bin/env python3
"""Big single inputs: is the time linear in the input's size, and the memory a small multiple of it?

Each case runs the release-built `subweave` on a small and a 4x larger input made here, in the
same run, and prints the time ratio large/small (4.0 is linear) and the peak memory (ru_maxrss)
per MiB of input. Peers run on the same inputs where there is one: python webvtt-py reading the
SubRip and WebVTT files (`webvtt.from_srt`, `webvtt.read`, cues dumped as JSON) and python m3u8
loading the master.

  srt       a SubRip file of two-line cues, 50 and 200 MiB: `cues --json`, and `package` into a
            10-hour title (cues past its end are read and left out)
  vtt       the same cues as WebVTT, 50 and 200 MiB: `cues --json`
  cue-line  one cue whose text is a single line, 25 and 100 MiB: `cues --json`
  variants  a master of 50,000 and 200,000 variants: `validate`, and `package` (every variant
            gets SUBTITLES=)
  groups    a master of 5,000 and 20,000 variants, each with its own SUBTITLES group of one
            rendition: `validate`, and `package --dry-run` (a new rendition in every group)
  attribute a master whose one attribute value is 16 and 64 MiB: `validate` (with the playlist
            read limit raised to 128 MiB)

Each case also runs once on a minimal input (one cue, one variant, an empty attribute): its peak is
the constant the memory bound allows, and the memory is printed both as peak / input and as
(peak - that baseline) / input.

    python3 Benchmarks/big-input-bench.py [--cases srt,vtt,cue-line,variants,groups,attribute] [--no-peers]

Needs: swift, ffmpeg (one real segment), pip (webvtt-py 0.6.0 and m3u8 6.0.0 into a venv).
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import make_title, release_subweave, run  # noqa: E402

MIB = 1 << 20


def cue_file(path, mib, webvtt):
    """Two-line cues, 2 s apart, with markup and references in some: SubRip, or the same cues as
    WebVTT (no counters, `.` before the milliseconds, `&` escaped)."""
    amp = "&amp;" if webvtt else "&"
    words = f"the quick brown fox jumps over a lazy dog while she said <i>hello</i> to them {amp} ran".split()
    rng = random.Random(1)
    size, i = 0, 0
    with open(path, "w") as f:
        if webvtt:
            f.write("WEBVTT\n\n")
        while size < mib * MIB:
            i += 1
            t = i * 2000
            text = " ".join(rng.choice(words) for _ in range(7)) + "\n" + " ".join(rng.choice(words) for _ in range(6))
            start, end = ts(t), ts(t + 1500)
            if webvtt:
                block = f"{start.replace(',', '.')} --> {end.replace(',', '.')}\n{text}\n\n"
            else:
                block = f"{i}\n{start} --> {end}\n{text}\n\n"
            f.write(block)
            size += len(block)


def srt_file(path, mib):
    cue_file(path, mib, webvtt=False)


def vtt_file(path, mib):
    cue_file(path, mib, webvtt=True)


def ts(ms):
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def cue_line_file(path, mib):
    with open(path, "w") as f:
        f.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n")
        chunk = "word " * (MIB // 5)
        for _ in range(mib):
            f.write(chunk)
        f.write("\n")


def variants_master(folder, count):
    """`count` variants naming the same media playlist (one real segment)."""
    lines = ["#EXTM3U", "#EXT-X-VERSION:3"]
    for i in range(count):
        lines += [f"#EXT-X-STREAM-INF:BANDWIDTH={100000 + i},CODECS=\"avc1.42c00c\",RESOLUTION=160x90", "prog.m3u8"]
    with open(os.path.join(folder, "master.m3u8"), "w") as f:
        f.write("\n".join(lines) + "\n")


def groups_master(folder, count):
    """`count` variants, each naming its own SUBTITLES group of one rendition (the same media
    playlist): lookups per group or per variant that scan the others make this quadratic."""
    lines = ["#EXTM3U", "#EXT-X-VERSION:3"]
    for i in range(count):
        lines.append(f'#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s{i}",NAME="French",LANGUAGE="fr",URI="s{i}.m3u8"')
    for i in range(count):
        lines += [f'#EXT-X-STREAM-INF:BANDWIDTH={100000 + i},SUBTITLES="s{i}",CODECS="avc1.42c00c",RESOLUTION=160x90', "prog.m3u8"]
    with open(os.path.join(folder, "master.m3u8"), "w") as f:
        f.write("\n".join(lines) + "\n")


def attribute_master(path, mib):
    value = "x" * (mib * MIB)
    with open(path, "w") as f:
        f.write(f"#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.big\",VALUE=\"{value}\"\n"
                "#EXT-X-STREAM-INF:BANDWIDTH=300000\nprog.m3u8\n")


def make(kind, path, size):
    """Makes an input in a child process: the memory it takes is not this process's, whose peak a
    child started from it inherits in ru_maxrss (it is counted until the child's exec)."""
    subprocess.run([sys.executable, os.path.abspath(__file__), "--make", kind, path, str(size)], check=True)


MAKERS = {"srt": srt_file, "vtt": vtt_file, "cue-line": cue_line_file, "attribute": attribute_master, "variants": variants_master,
          "groups": groups_master}


def fresh_copy(title, copy):
    if os.path.exists(copy):
        shutil.rmtree(copy)
    shutil.copytree(title, copy, copy_function=os.link)
    os.unlink(os.path.join(copy, "master.m3u8"))
    shutil.copy(os.path.join(title, "master.m3u8"), os.path.join(copy, "master.m3u8"))
    return os.path.join(copy, "master.m3u8")


def pair(name, small, large, base, size_small, size_large, results):
    """Records a small/large pair of (seconds, MiB) runs, and `base`, the same command's run on a
    minimal input: the constant in "memory <= 2x the input plus a constant" (the runtime and
    Foundation, about 30 MiB, are resident before any input is read)."""
    (ws, ms), (wl, ml), (_, mb) = small, large, base
    entry = {"small": {"input_mib": size_small / MIB, "wall_s": ws, "peak_rss_mib": ms},
             "large": {"input_mib": size_large / MIB, "wall_s": wl, "peak_rss_mib": ml},
             "baseline_peak_rss_mib": mb,
             "time_ratio": wl / ws, "size_ratio": size_large / size_small,
             "large_memory_per_input_mib": ml / (size_large / MIB),
             "large_memory_above_baseline_per_input_mib": (ml - mb) / (size_large / MIB)}
    results[name] = entry
    print(f"{name}: {ws:.2f} s / {ms:.0f} MiB -> {wl:.2f} s / {ml:.0f} MiB; time x{wl / ws:.2f} for x{size_large / size_small:.1f} the input; "
          f"memory {ml / (size_large / MIB):.2f}x the large input, {(ml - mb) / (size_large / MIB):.2f}x above the {mb:.0f} MiB of a minimal input",
          flush=True)


def cues_case(subweave, work, kind, mibs, extension, tiny, name, results):
    """Makes a small and a large `kind` input of `mibs` MiB, runs `cues --json` on them and on
    `tiny`, and records the pair; returns the files by size and their sizes in bytes."""
    files = {mib: os.path.join(work, f"{kind}{mib}.{extension}") for mib in mibs}
    for mib, path in files.items():
        make(kind, path, mib)
    sizes = [os.path.getsize(path) for path in files.values()]
    runs = [run([subweave, "cues", path, "--json"]) for path in (*files.values(), tiny)]
    pair(name, *runs, *sizes, results)
    return files, sizes


def tiny_vtt(work):
    """A one-cue WebVTT file: the minimal input of the WebVTT cases."""
    path = os.path.join(work, "tiny.vtt")
    with open(path, "w") as f:
        f.write("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nword\n")
    return path


def webvtt_py_peer(python, work, reader, path, case, results):
    """webvtt-py reading `path` with `reader` and dumping the cues as JSON, against Subweave's
    `cues --json` on the same file (the small run of `case`)."""
    peer = os.path.join(work, f"peer_{case}.py")
    with open(peer, "w") as f:
        f.write(f"import sys, json, webvtt\ncaps = {reader}(sys.argv[1])\n"
                "json.dump([{'start': c.start, 'end': c.end, 'text': c.text} for c in caps], open(sys.argv[2], 'w'))\n")
    w, m = run([python, peer, path, os.path.join(work, "peer.json")])
    ours = results[f"{case} cues --json"]["small"]
    ws, ms = ours["wall_s"], ours["peak_rss_mib"]
    results[f"{case} peer webvtt-py (50 MiB)"] = {"wall_s": w, "peak_rss_mib": m, "subweave_time_ratio": ws / w, "subweave_memory_ratio": ms / m}
    print(f"  peer webvtt-py on 50 MiB: {w:.2f} s / {m:.0f} MiB; Subweave/peer time {ws / w:.2f}, memory {ms / m:.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="srt,vtt,cue-line,variants,groups,attribute")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--make", nargs=3, metavar=("KIND", "PATH", "SIZE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:
        kind, path, size = args.make
        MAKERS[kind](path, int(size))
        return
    cases = set(args.cases.split(","))
    subweave = release_subweave()
    work = tempfile.mkdtemp(prefix="subweave-big-")
    results = {}
    python = None
    if not args.no_peers:
        venv = os.path.join(work, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "webvtt-py==0.6.0", "m3u8==6.0.0"], check=True)
        python = os.path.join(venv, "bin", "python")
    try:
        if "srt" in cases:
            tiny = os.path.join(work, "tiny.srt")
            with open(tiny, "w") as f:
                f.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n")
            files, sizes = cues_case(subweave, work, "srt", (50, 200), "srt", tiny, "srt cues --json", results)
            title, _ = make_title(work, 6000, [], 0, name="title")
            runs = [run([subweave, "package", fresh_copy(title, os.path.join(work, "copy")), "--subtitle", f"url={path},language=en"])
                    for path in (files[50], files[200], tiny)]
            pair("srt package", *runs, *sizes, results)
            if python:
                webvtt_py_peer(python, work, "webvtt.from_srt", files[50], "srt", results)
        if "vtt" in cases:
            files, _ = cues_case(subweave, work, "vtt", (50, 200), "vtt", tiny_vtt(work), "vtt cues --json", results)
            if python:
                webvtt_py_peer(python, work, "webvtt.read", files[50], "vtt", results)
        if "cue-line" in cases:
            cues_case(subweave, work, "cue-line", (25, 100), "vtt", tiny_vtt(work), "cue line cues --json", results)
        if "variants" in cases:
            title, _ = make_title(work, 10, [], 0, name="variants-title")
            srt = os.path.join(work, "one.srt")
            with open(srt, "w") as f:
                f.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n")
            masters, sizes = {}, []
            for count in (50000, 200000, 1):
                folder = os.path.join(work, f"v{count}")
                shutil.copytree(title, folder, copy_function=os.link)
                os.unlink(os.path.join(folder, "master.m3u8"))
                make("variants", folder, count)
                masters[count] = folder
                sizes.append(os.path.getsize(os.path.join(folder, "master.m3u8")))
            counts = (50000, 200000, 1)
            runs = [run([subweave, "validate", os.path.join(masters[c], "master.m3u8")], ok_codes=(0, 1)) for c in counts]
            pair("variants validate", *runs, *sizes[:2], results)
            runs = [run([subweave, "package", fresh_copy(masters[c], masters[c] + "-copy"), "--subtitle", f"url={srt},language=en"])
                    for c in counts]
            pair("variants package", *runs, *sizes[:2], results)
            if python:
                peer = os.path.join(work, "peer_m3u8.py")
                with open(peer, "w") as f:
                    f.write("import sys, m3u8\nm = m3u8.load(sys.argv[1])\nassert len(m.playlists) > 0\nopen(sys.argv[2], 'w').write(m.dumps())\n")
                w, m = run([python, peer, os.path.join(masters[200000], "master.m3u8"), os.path.join(work, "peer.m3u8")])
                wl, ml = results["variants package"]["large"]["wall_s"], results["variants package"]["large"]["peak_rss_mib"]
                results["variants peer m3u8 load+dump (200k)"] = {"wall_s": w, "peak_rss_mib": m, "subweave_package_time_ratio": wl / w,
                                                                 "subweave_package_memory_ratio": ml / m}
                print(f"  peer m3u8 load+dump of 200k variants: {w:.2f} s / {m:.0f} MiB; Subweave package/peer time {wl / w:.2f}, memory {ml / m:.2f}",
                      flush=True)
        if "groups" in cases:
            title, _ = make_title(work, 10, [], 0, name="groups-title")
            srt = os.path.join(work, "one.srt")
            with open(srt, "w") as f:
                f.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n")
            masters, sizes = {}, []
            for count in (5000, 20000, 1):
                folder = os.path.join(work, f"g{count}")
                shutil.copytree(title, folder, copy_function=os.link)
                os.unlink(os.path.join(folder, "master.m3u8"))
                make("groups", folder, count)
                masters[count] = os.path.join(folder, "master.m3u8")
                sizes.append(os.path.getsize(masters[count]))
            counts = (5000, 20000, 1)
            runs = [run([subweave, "validate", masters[c]], ok_codes=(0, 1)) for c in counts]
            pair("groups validate", *runs, *sizes[:2], results)
            runs = [run([subweave, "package", masters[c], "--subtitle", f"url={srt},language=en", "--dry-run"]) for c in counts]
            pair("groups package --dry-run", *runs, *sizes[:2], results)
        if "attribute" in cases:
            files = {mib: os.path.join(work, f"attr{mib}.m3u8") for mib in (16, 64, 0)}
            for mib, path in files.items():
                make("attribute", path, mib)
            runs = [run([subweave, "validate", files[m], "--limit", "playlist=128MiB"], ok_codes=(0, 1)) for m in (16, 64, 0)]
            pair("attribute validate", *runs, os.path.getsize(files[16]), os.path.getsize(files[64]), results)
        print(json.dumps(results, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
