#!/usr/bin/env python3
"""The current checkout against a named earlier commit, built side by side (a git worktree in
.build/compare/<commit>): the same work timed alternately with both release binaries, as a ratio,
and the outputs compared byte for byte.

    python3 Benchmarks/compare-builds.py BASE_COMMIT [--runs 7] [--no-outputs] [--no-speed]

Speed: the 100-minute title of package-bench.py (1,000 x 6 s segments, 10 SubRip languages of
1,500 cues), packaged by each binary in turn; prints the medians and current/base (below 1 is
faster). Outputs: every fixture presentation and the bundled example packaged with the
Fixtures' subtitle files; `cues --json` and `convert` (to WebVTT and to SubRip) of every subtitle
file under Fixtures/, of the real-text encoding corpus and of the TTML cases below; every
difference is listed (file and first differing byte). A difference is a regression unless the
change meant it. The caption record and run fingerprint beside a master are keyed by the binary
and not compared.
"""
import argparse, filecmp, os, shutil, statistics, subprocess, sys, tarfile, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, make_title, package_copy, release_subweave  # noqa: E402

LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "pl", "ja"]
SUBTITLE_EXTENSIONS = (".srt", ".vtt", ".scc", ".ass", ".ssa", ".ttml", ".dfxp", ".xml")


def base_binary(commit):
    tree = os.path.join(ROOT, ".build", "compare", commit)
    if not os.path.isdir(tree):
        os.makedirs(os.path.dirname(tree), exist_ok=True)
        subprocess.run(["git", "worktree", "add", "--detach", tree, commit], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return release_subweave(root=tree)


def speed(binaries, work, runs):
    hls, subs = make_title(work, 1000, LANGUAGES, 1500)
    times = {name: [] for name in binaries}
    for r in range(runs):
        for name, binary in binaries.items():
            copy = os.path.join(work, f"{name}-{r}")
            times[name].append(package_copy(binary, hls, subs, LANGUAGES, copy))
            shutil.rmtree(copy)
    wall = {name: statistics.median(w for w, _ in t) for name, t in times.items()}
    rss = {name: max(m for _, m in t) for name, t in times.items()}
    print(f"speed: current {wall['current']:.3f} s / {rss['current']:.1f} MiB, base {wall['base']:.3f} s / {rss['base']:.1f} MiB; "
          f"current/base time {wall['current'] / wall['base']:.3f}, memory {rss['current'] / rss['base']:.3f}")


def first_difference(a, b):
    with open(a, "rb") as f, open(b, "rb") as g:
        x, y = f.read(), g.read()
    for i, (p, q) in enumerate(zip(x, y)):
        if p != q:
            return i
    return min(len(x), len(y))


# Records keyed by the binary that wrote them (the caption record's key and the run fingerprint
# hash the binary): they differ between any two builds by design, and are not outputs.
BINARY_KEYED = (".subweave-captions.json", ".subweave-run.json")

# TTML documents beyond the fixtures, for the paths cue text is composed on: whitespace collapsing
# and preserving around styled spans, nested and referenced styles, colours in each syntax,
# regions, ruby, `set`. Converted to WebVTT and SubRip by both builds.
TTML_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" '
             'xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xml:lang="en">')
TTML_CASES = {
    "spaces": '<body><div><p begin="1s" end="2s">  a <span tts:fontStyle="italic"> b </span> c<span tts:fontWeight="bold">d </span> e </p></div></body>',
    "preserve": ('<body><div xml:space="preserve"><p begin="1s" end="2s">a <span tts:fontStyle="italic">b \n c </span>'
                 '<span xml:space="default" tts:textDecoration="underline">  d  </span> e</p></div></body>'),
    "colours": ('<body><div><p begin="1s" end="2s"><span tts:color="#FFFF00">y</span><span tts:color="rgb(0,255,255)">c</span>'
                '<span tts:color="#ff00ff80">t</span><span tts:color="lime">l</span><span tts:color="#123456">o</span>'
                '<span tts:color="yellow"><span tts:color="nonsense">n</span></span><span tts:color="rgba(255,0,0,255)">r</span></p></div></body>'),
    "referenced": ('<head><styling><style xml:id="a" tts:fontStyle="italic"/><style xml:id="b" style="a" tts:color="cyan" tts:fontWeight="bold"/>'
                   '</styling></head><body style="a"><div><p begin="1s" end="2s" style="b">x <span tts:fontStyle="normal">y</span>'
                   '<br/>z</p></div></body>'),
    "regions": ('<head><layout><region xml:id="t" tts:origin="10% 5%" tts:extent="80% 15%" tts:textAlign="left"/>'
                '<region xml:id="m" tts:origin="0% 40%" tts:extent="100% 20%" tts:displayAlign="center" tts:textAlign="end"/>'
                '<region xml:id="b" tts:origin="12.5% 70%" tts:extent="75% 20.25%" tts:displayAlign="after"/>'
                '<region xml:id="v" tts:origin="80% 10%" tts:extent="15% 80%" tts:writingMode="lrtb"/></layout></head>'
                '<body><div><p region="t" begin="1s" end="2s">top</p><p region="m" begin="2s" end="3s">middle</p>'
                '<p region="b" begin="3s" end="4s">bottom</p><p region="v" begin="4s" end="5s">side</p></div></body>'),
    "ruby": ('<body><div><p begin="1s" end="2s"><span tts:ruby="container"><span tts:ruby="base">漢字</span>'
             '<span tts:ruby="text" tts:fontStyle="italic">かんじ</span></span> と <span tts:ruby="container">'
             '<span tts:ruby="base">空</span><span tts:ruby="text"></span></span></p></div></body>'),
    "set": ('<body><div><p begin="1s" end="4s">a <span tts:color="yellow"><set begin="1s" end="2s" tts:color="#123456"/>b</span>'
            ' <span><set begin="1s" end="2s" tts:visibility="hidden"/>c</span></p></div></body>'),
}


def compare_trees(a, b, label, differences):
    for folder, _, files in os.walk(a):
        for name in files:
            left = os.path.join(folder, name)
            right = os.path.join(b, os.path.relpath(left, a))
            if name.endswith(BINARY_KEYED):
                continue
            if not os.path.exists(right):
                differences.append(f"{label}: {os.path.relpath(left, a)} only in current")
            elif not filecmp.cmp(left, right, shallow=False):
                differences.append(f"{label}: {os.path.relpath(left, a)} differs at byte {first_difference(left, right)}")
    for folder, _, files in os.walk(b):
        for name in files:
            right = os.path.join(folder, name)
            if not os.path.exists(os.path.join(a, os.path.relpath(right, b))):
                differences.append(f"{label}: {os.path.relpath(right, b)} only in base")


def outputs(binaries, work):
    differences, compared = [], 0
    subtitles = []
    for folder, _, files in os.walk(os.path.join(ROOT, "Fixtures")):
        subtitles += [os.path.join(folder, f) for f in sorted(files) if f.endswith(SUBTITLE_EXTENSIONS) and "/fuzz/" not in folder + "/"]
    corpus = os.path.join(work, "corpus")
    with tarfile.open(os.path.join(ROOT, "Fixtures/subtitles/encodings/corpus.tar.xz")) as tar:
        tar.extractall(corpus)
    for folder, _, files in os.walk(corpus):
        subtitles += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".srt")]
    for name, body in TTML_CASES.items():
        path = os.path.join(work, f"case-{name}.ttml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(TTML_HEAD + body + "</tt>\n")
        subtitles.append(path)
    for path in subtitles:
        for arguments in (["cues", path, "--json"], ["convert", path], ["convert", path, "--to", "srt"]):
            results = {name: subprocess.run([binary] + arguments, capture_output=True) for name, binary in binaries.items()}
            compared += 1
            if results["current"].stdout != results["base"].stdout or results["current"].returncode != results["base"].returncode:
                shown = os.path.relpath(arguments[1], ROOT) if arguments[1].startswith(ROOT) else os.path.basename(arguments[1])
                differences.append(f"{' '.join(arguments[:1] + [shown] + arguments[2:])}: outputs differ")
    presentations = [os.path.join(ROOT, "Examples/basic")]
    media = os.path.join(ROOT, "Fixtures/media")
    presentations += [os.path.join(media, m) for m in sorted(os.listdir(media)) if os.path.exists(os.path.join(media, m, "master.m3u8"))]
    tracks = [os.path.join(ROOT, "Examples/basic/subs/en.srt"), os.path.join(ROOT, "Examples/basic/subs/fr.vtt")]
    for presentation in presentations:
        copies = {}
        for name, binary in binaries.items():
            copy = os.path.join(work, "p-" + name + "-" + os.path.basename(presentation))
            shutil.copytree(presentation, copy)
            cmd = [binary, "package", os.path.join(copy, "master.m3u8"), "--caption-language", "en"]
            for t in tracks:
                cmd += ["--subtitle", f"url={t},language={'en' if t.endswith('srt') else 'fr'}"]
            subprocess.run(cmd, capture_output=True)
            copies[name] = copy
        compared += 1
        compare_trees(copies["current"], copies["base"], os.path.basename(presentation), differences)
    print(f"outputs: {compared} comparisons, {len(differences)} differences")
    for d in differences[:200]:
        print("  " + d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-outputs", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    binaries = {"current": release_subweave(), "base": base_binary(commit)}
    work = tempfile.mkdtemp(prefix="subweave-compare-")
    try:
        print(f"current: {ROOT} (HEAD {subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout.strip()} "
              f"and the working tree), base: {commit}")
        if not args.no_speed:
            speed(binaries, work, args.runs)
        if not args.no_outputs:
            outputs(binaries, work)
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
