#!/usr/bin/env python3
"""Catalogue benchmark: 200 small titles (copies of Examples/basic, video hard-linked, each with
its own subtitle file) packaged by the release-built `subweave batch` with --jobs 1 and --jobs 2,
next to, in the same run:
  - the same 200 titles packaged by 200 separate `subweave package` processes (xargs -P 1 / -P 2):
    what a pipeline without `batch` does;
  - python's m3u8 library loading and dumping each title's master in one process (the least any
    Python packaging step does per title): a floor for per-title overhead.

    python3 Benchmarks/batch-bench.py [--titles 200] [--keep]

Reports wall time, per-title time and peak memory; compare the ratios, not the seconds (the
machine is shared).
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, release_subweave, run  # noqa: E402


def link_or_copy(source, target):
    """A hard link where the work folder is on the checkout's file system, else a copy (tmpfs)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def make_titles(folder, count):
    """count copies of the example; video segments hard-linked, playlists and subtitles copied."""
    example = os.path.join(ROOT, "Examples", "basic")
    lines = []
    for i in range(count):
        title = os.path.join(folder, f"t{i:04d}")
        shutil.copytree(example, title, copy_function=link_or_copy)
        for sub in ["master.m3u8", "subs/en.srt", "subs/fr.vtt", "video/high/prog.m3u8", "video/low/prog.m3u8"]:
            path = os.path.join(title, sub)
            os.unlink(path)
            shutil.copy(os.path.join(example, sub), path)
        lines.append(json.dumps({"id": f"t{i}", "master": f"t{i:04d}/master.m3u8",
                                 "tracks": [{"url": f"t{i:04d}/subs/en.srt", "language": "en"},
                                            {"url": f"t{i:04d}/subs/fr.vtt", "language": "fr"}]}))
    with open(os.path.join(folder, "catalogue.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return os.path.join(folder, "catalogue.jsonl")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--titles", type=int, default=200)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    subweave = release_subweave()
    work = tempfile.mkdtemp(prefix="subweave-batch-bench-")
    venv = os.path.join(work, "venv")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "m3u8==6.0.0"], check=True)
    n = args.titles
    report = {"titles": n}
    try:
        for jobs in (1, 2):
            folder = os.path.join(work, f"batch{jobs}")
            os.makedirs(folder)
            catalogue = make_titles(folder, n)
            wall, rss = run([subweave, "batch", catalogue, "--jobs", str(jobs)])
            report[f"batch_jobs{jobs}"] = {"wall_s": round(wall, 3), "per_title_ms": round(1000 * wall / n, 2), "peak_rss_mib": round(rss, 1)}
            # A second run finds every title packaged: the cost of the skip check.
            wall, _ = run([subweave, "batch", catalogue, "--jobs", str(jobs)])
            report[f"batch_jobs{jobs}_all_skipped"] = {"wall_s": round(wall, 3), "per_title_ms": round(1000 * wall / n, 2)}

            folder = os.path.join(work, f"loop{jobs}")
            os.makedirs(folder)
            make_titles(folder, n)
            script = (f'ls -d {folder}/t* | xargs -P {jobs} -I T {subweave} package T/master.m3u8 '
                      f'--subtitle url=T/subs/en.srt,language=en --subtitle url=T/subs/fr.vtt,language=fr --quiet')
            wall, rss = run(["sh", "-c", script])
            report[f"processes_P{jobs}"] = {"wall_s": round(wall, 3), "per_title_ms": round(1000 * wall / n, 2)}
            report[f"ratio_batch_to_processes_jobs{jobs}"] = round(report[f"batch_jobs{jobs}"]["wall_s"] / wall, 3)

        folder = os.path.join(work, "m3u8")
        os.makedirs(folder)
        make_titles(folder, n)
        code = ("import m3u8, glob, sys\n"
                f"for p in sorted(glob.glob('{folder}/t*/master.m3u8')):\n"
                "    m = m3u8.load(p); open(p + '.out', 'w').write(m.dumps())\n")
        wall, rss = run([os.path.join(venv, "bin", "python"), "-c", code])
        report["python_m3u8_load_dump"] = {"wall_s": round(wall, 3), "per_title_ms": round(1000 * wall / n, 2), "peak_rss_mib": round(rss, 1)}
        report["ratio_batch_jobs1_to_python_m3u8"] = round(report["batch_jobs1"]["wall_s"] / wall, 3)
        print(json.dumps(report, indent=2))
    finally:
        if args.keep:
            print("kept", work)
        else:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
