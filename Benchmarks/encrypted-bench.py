#!/usr/bin/env python3
"""An AES-128 title against its clear twin, and against OpenSSL decrypting the same segments.

    python3 Benchmarks/encrypted-bench.py [--seconds 20]

ffmpeg encodes one noisy 1280x720 test pattern (x264 ultrafast, CRF 18: about 10 MB a second,
so the bytes are a real programme's) twice into 4 s HLS segments: clear, and AES-128 encrypted
with a random key (`-hls_key_info_file`). Times (page cache warm, the median of five runs):
`cat` of the encrypted segments, `openssl enc -d -aes-128-cbc` of each (the peer's AES, with the
processor's AES instructions), `package --dry-run` of the clear title with one sidecar, and of the
encrypted one with `--encrypt-subtitles` (every segment decrypted to read its captions). The
machine is shared: compare the ratios, not the seconds.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release_subweave, run  # noqa: E402


def title(folder, seconds, keyinfo=None):
    os.makedirs(folder)
    extra = ["-hls_key_info_file", keyinfo] if keyinfo else []
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i",
                    "testsrc=size=1280x720:rate=25,noise=alls=30:allf=t", "-t", str(seconds), "-c:v", "libx264", "-preset", "ultrafast",
                    "-crf", "18", "-g", "25", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod"] + extra
                   + ["-hls_segment_filename", os.path.join(folder, "s%03d.ts"), os.path.join(folder, "p.m3u8")], check=True)
    with open(os.path.join(folder, "master.m3u8"), "w") as f:
        f.write('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=9000000,CODECS="avc1.640028",RESOLUTION=1280x720\np.m3u8\n')
    with open(os.path.join(folder, "en.srt"), "w") as f:
        f.write("1\n00:00:01,000 --> 00:00:02,000\nHello\n")


def median(cmd, **kw):
    return statistics.median(run(cmd, **kw)[0] for _ in range(5))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args()
    subweave = release_subweave()
    work = tempfile.mkdtemp(prefix="subweave-encrypted-")
    try:
        key = os.path.join(work, "key.bin")
        with open(key, "wb") as f:
            f.write(os.urandom(16))
        keyinfo = os.path.join(work, "keyinfo")
        with open(keyinfo, "w") as f:
            f.write(f"../key.bin\n{key}\n")
        clear, sealed = os.path.join(work, "clear"), os.path.join(work, "encrypted")
        title(clear, args.seconds)
        title(sealed, args.seconds, keyinfo)
        segments = sorted(os.path.join(sealed, n) for n in os.listdir(sealed) if n.endswith(".ts"))
        size = sum(os.path.getsize(s) for s in segments) / 2**20
        hexkey = open(key, "rb").read().hex()
        script = "; ".join(f"openssl enc -d -aes-128-cbc -K {hexkey} -iv {'0' * 32} -in {s} -out /dev/null" for s in segments)
        cat = median(["cat"] + segments)
        openssl = median(["sh", "-c", script])
        plain = median([subweave, "package", os.path.join(clear, "master.m3u8"), "--subtitle",
                        f"url={os.path.join(clear, 'en.srt')},language=en", "--dry-run"])
        encrypted = median([subweave, "package", os.path.join(sealed, "master.m3u8"), "--subtitle",
                            f"url={os.path.join(sealed, 'en.srt')},language=en", "--dry-run", "--encrypt-subtitles", key])
        print(f"{len(segments)} segments, {size:.0f} MiB")
        for name, t in [("cat", cat), ("openssl decrypt", openssl), ("dry-run, clear", plain), ("dry-run, encrypted", encrypted)]:
            print(f"{name:20} {t:7.3f} s  {t / cat:6.1f} x cat  {t / plain:5.2f} x clear dry-run")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
