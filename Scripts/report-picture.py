#!/usr/bin/env python3
"""Makes docs/report.png, the picture of `subweave report` in the README: a programme with speech
(espeak-ng, as Benchmarks/sync-bench.py makes it, three minutes), three subtitle tracks packaged
into it (one in sync, one 2.5 s late, one made for the 25 fps version), the report written with
--speech --html, and headless Chromium's screenshot of it.

    python3 Scripts/report-picture.py [--out docs/report.png]
"""
import argparse, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
from benchlib import release_subweave  # noqa: E402

bench = __import__("sync-bench")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs/report.png"))
    args = ap.parse_args()
    subweave = release_subweave()
    with tempfile.TemporaryDirectory() as work:
        master, truth = bench.programme(work, "programme", bench.SENTENCES_EN, "en", 3, seed=1)
        rate = 25 / bench.FILM
        tracks = {"en": truth, "fr": [(a + 2.5, b + 2.5, t, i) for a, b, t, i in truth], "de": [(a * rate, b * rate, t, i) for a, b, t, i in truth]}
        arguments = []
        for language, cues in tracks.items():
            path = os.path.join(work, f"{language}.srt")
            bench.write_srt(path, cues)
            arguments += ["--subtitle", f"url={path},language={language}"]
        subprocess.run([subweave, "package", master, "--quiet"] + arguments, check=True)
        page = os.path.join(work, "report.html")
        subprocess.run([subweave, "report", master, "--speech", "--html", page], check=True)
        subprocess.run(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={work}/profile",
                        "--window-size=1340,370", "--hide-scrollbars", f"--screenshot={args.out}", "file://" + page], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
