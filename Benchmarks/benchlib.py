"""What the benchmarks share: building the release binary and timing a child process."""
import os, random, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEGMENT_SECONDS = 6


def release_subweave():
    """Builds the release `subweave` and returns its path."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "subweave"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    binpath = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    return os.path.join(binpath, "subweave")


def run(cmd, stdout=subprocess.DEVNULL, ok_codes=(0,), **kw):
    """Runs cmd; returns (wall seconds, peak RSS in MiB) of that process alone (wait4). An exit
    status outside `ok_codes` stops the benchmark."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, **kw)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) not in ok_codes:
        sys.exit(f"{' '.join(cmd[:4])} … failed:\n{err[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def vtt_time(ms):
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def make_title(work, segments, languages, cues, name="hls"):
    """A title of `segments` segments (one real segment, hard-linked) and `languages` SubRip and
    WebVTT files of `cues` cues spread over the whole title."""
    hls = os.path.join(work, name)
    os.makedirs(hls)
    seg = os.path.join(hls, "seg_0000.ts")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=160x90:rate=25", "-t", str(SEGMENT_SECONDS), "-c:v", "libx264",
                    "-preset", "ultrafast", "-g", "50", "-bf", "2", "-f", "mpegts", seg], check=True)
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{SEGMENT_SECONDS}",
             "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD"]
    for i in range(segments):
        segment = f"seg_{i:04d}.ts"
        if i:
            os.link(seg, os.path.join(hls, segment))  # every segment exists; only the first is read
        lines += [f"#EXTINF:{SEGMENT_SECONDS}.000000,", segment]
    lines.append("#EXT-X-ENDLIST")
    with open(os.path.join(hls, "prog.m3u8"), "w") as f:
        f.write("\n".join(lines) + "\n")
    master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=160x90\nprog.m3u8\n"
    with open(os.path.join(hls, "master.m3u8"), "w") as f:
        f.write(master)
    subs = os.path.join(work, name + "-subs")
    os.makedirs(subs)
    total_ms = segments * SEGMENT_SECONDS * 1000
    for n, lang in enumerate(languages):
        rng = random.Random(n)
        starts = sorted(rng.randrange(0, total_ms - 8000) for _ in range(cues))
        vtt, srt = ["WEBVTT", ""], []
        for i, s in enumerate(starts):
            e = s + rng.randrange(1200, 6500)
            text = f"Line {i} in {lang}: " + " ".join(rng.choice(["the", "a", "subtitle", "very", "long", "word", "é", "ß"]) for _ in range(8))
            if i % 3 == 0:
                text += "\nsecond line with <i>italics</i> & more"
            vtt += [str(i + 1), f"{vtt_time(s)} --> {vtt_time(e)}", text, ""]
            # The same cue as SubRip, what vendors deliver (and what Subweave reads here).
            srt += [str(i + 1), f"{vtt_time(s).replace('.', ',')} --> {vtt_time(e).replace('.', ',')}", text, ""]
        with open(os.path.join(subs, f"{lang}.vtt"), "w") as f:
            f.write("\n".join(vtt))
        with open(os.path.join(subs, f"{lang}.srt"), "w") as f:
            f.write("\n".join(srt))
    return hls, subs
