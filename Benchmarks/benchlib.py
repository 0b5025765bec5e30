"""What the benchmarks share: building the release binary and timing a child process."""
import os, random, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEGMENT_SECONDS = 6


# The subtitle path alone: the packager's reading of the whole video for in-band captions is
# measured by captions-bench.py, so the subtitle benchmarks turn it off.
SUBTITLES_ONLY = ["--captions", "off", "--closed-captions", "none"]


def release_subweave(static=False, root=ROOT):
    """Builds the release `subweave` of the checkout at `root` and returns its path; with
    `static`, the self-contained binary Scripts/install.sh installs (static Swift runtime)."""
    extra = ["--static-swift-stdlib", "--build-path", os.path.join(root, ".build/static")] if static else []
    subprocess.run(["swift", "build", "-c", "release", "--product", "subweave"] + extra, cwd=root, check=True, stdout=subprocess.DEVNULL)
    binpath = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"] + extra, cwd=root, check=True,
                             capture_output=True, text=True).stdout.strip()
    return os.path.join(binpath, "subweave")


def settle(seconds=1.0):
    """Lets the kernel finish what the last files made or removed left it (freeing inodes after a
    removal goes on after `rmtree` returns): a timed run that starts at once pays for it. On tmpfs,
    Subweave's 10-hour, 20-language run right after the floor's 120,000 files were removed took
    1.1 s against 0.66 s after a one-second pause."""
    os.sync()
    time.sleep(seconds)


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


def floor_binary(work):
    """Benchmarks/io-floor.c (one writer thread per online core), compiled here."""
    binary = os.path.join(work, "io-floor")
    subprocess.run(["cc", "-O2", "-pthread", "-o", binary, os.path.join(ROOT, "Benchmarks", "io-floor.c")], check=True)
    return binary


def run_floor(program, packaged, root):
    """Writes what Subweave wrote into `packaged` (its generation folders, then the master) with
    the C floor program, and times it; removes `packaged` before the run and the floor's own
    output `root` after it.

    Each timed run starts from the same state, the title's inputs and nothing else: on tmpfs,
    creating 120,000 files while another 120,000 just made still exist cost the kernel three to
    four times the system time of creating them after a removal (on the 10-hour, 20-language
    title: 1.3-1.8 s against 0.4-0.6 s for the floor), so a floor timed beside Subweave's output
    measured the kernel's slab growth, not the floor."""
    manifest = os.path.join(root + ".manifest")
    write_manifest(packaged, manifest)
    import shutil
    shutil.rmtree(packaged)
    settle()
    timing = run([program, manifest, root])
    shutil.rmtree(root)
    os.unlink(manifest)
    return timing


def package_copy(subweave, hls, subs, languages, copy, extra=()):
    """One `subweave package` run, subtitles only, on a fresh copy of the title at `copy`
    (segments hard-linked, the master copied so that its rewrite leaves `hls` alone)."""
    fresh_copy(hls, copy)
    cmd = package_command(subweave, copy, subs, languages, extra)
    settle()
    return run(cmd)


def fresh_copy(hls, copy):
    """The title at `hls` copied to `copy`: segments hard-linked, the master copied (so that its
    rewrite leaves `hls` alone)."""
    import shutil
    shutil.copytree(hls, copy, copy_function=os.link)
    os.unlink(os.path.join(copy, "master.m3u8"))
    shutil.copy(os.path.join(hls, "master.m3u8"), os.path.join(copy, "master.m3u8"))


def package_command(subweave, copy, subs, languages, extra=()):
    """`subweave package` of the title at `copy`, subtitles only, one SubRip track per language."""
    cmd = [subweave, "package", os.path.join(copy, "master.m3u8")] + SUBTITLES_ONLY + list(extra)
    for lang in languages:
        cmd += ["--subtitle", f"url={subs}/{lang}.srt,language={lang}"]
    return cmd


def write_manifest(packaged, path):
    """What Subweave wrote into `packaged` (its generation folders' files and sizes, then the
    master), as the floor program (Benchmarks/io-floor.c) reads it."""
    with open(path, "w") as out:
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

