#!/usr/bin/env python3
"""Encoding detection on real text, against chardet and charset-normalizer on the same files in
the same run: the held-out half of Fixtures/subtitles/encodings/corpus.tar.xz (translated
sentences of 34 languages in 2-4 KB SubRip files), each file encoded by Python's codecs into every
legacy encoding of its language, plus BOM-less UTF-16/32 copies of some. A file is *exact* when its
text comes out as written, *near* when only a few characters differ (code pages that differ on a
byte or two).

    python3 Benchmarks/encoding-bench.py [--split test] [--cut BYTES]

Subweave reads each file with `subweave convert FILE --to srt` (the release build), compared with
the same conversion of the UTF-8 original; the peers guess an encoding, and the file is decoded
with Python's codec of their guess. Prints a table per encoding and the totals.
"""
import argparse, collections, io, os, subprocess, sys, tarfile, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, release_subweave  # noqa: E402

PYTHON_NAMES = {"cp932": "cp932", "cp949": "cp949", "tis_620": "cp874"}


def peers():
    import chardet, charset_normalizer

    def chardet_guess(data):
        return chardet.detect(data)["encoding"]

    def normalizer_guess(data):
        best = charset_normalizer.from_bytes(data).best()
        return best.encoding if best else None

    return {"chardet " + chardet.__version__: chardet_guess, "charset-normalizer " + charset_normalizer.__version__: normalizer_guess}


def decoded_as(data, guess):
    if not guess:
        return None
    try:
        return data.decode(guess)
    except (LookupError, UnicodeDecodeError):
        return None


def score(got, want):
    if got is None:
        return "wrong"
    if got == want:
        return "exact"
    if len(got) == len(want) and sum(1 for a, b in zip(got, want) if a != b) <= 3:
        return "near"
    return "wrong"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="test")
    ap.add_argument("--cut", type=int, default=0, help="cut each encoded file to this many bytes (at a line break)")
    args = ap.parse_args()
    subweave = release_subweave()
    work = tempfile.mkdtemp(prefix="subweave-enc-")
    with tarfile.open(os.path.join(ROOT, "Fixtures/subtitles/encodings/corpus.tar.xz")) as tar:
        tar.extractall(work)
    rows = [line.split("\t") for line in open(os.path.join(work, "manifest.tsv")).read().splitlines()]
    cases = []
    for name, lang, codecs in rows:
        if not name.startswith(args.split + "/"):
            continue
        text = open(os.path.join(work, name), encoding="utf-8").read()
        for codec in codecs.split(","):
            cases.append((name, codec, text))
        if lang in ("ru", "fr"):
            cases += [(name, unicode, text) for unicode in ("utf_16_le", "utf_16_be", "utf_32_le", "utf_32_be")]
    results = collections.defaultdict(lambda: collections.Counter())
    tools = {"subweave": None, **peers()}
    for n, (name, codec, text) in enumerate(cases):
        python = PYTHON_NAMES.get(codec, codec)
        want = text
        if args.cut and len(text.encode(python)) > args.cut:
            # Whole lines while the encoded text fits the cut.
            kept = []
            for line in text.splitlines(keepends=True):
                if len("".join(kept + [line]).encode(python)) > args.cut:
                    break
                kept.append(line)
            want = "".join(kept)
        data = want.encode(python)
        path = os.path.join(work, f"case{n}.srt")
        with open(path, "wb") as f:
            f.write(data)
        original = os.path.join(work, f"case{n}.utf8.srt")
        with open(original, "w", encoding="utf-8") as f:
            f.write(want)
        ours = subprocess.run([subweave, "convert", path, "--to", "srt"], capture_output=True).stdout
        reference = subprocess.run([subweave, "convert", original, "--to", "srt"], capture_output=True).stdout
        results[(codec, "subweave")][score(ours.decode("utf-8", "replace"), reference.decode("utf-8"))] += 1
        for tool, guess in peers().items():
            results[(codec, tool)][score(decoded_as(data, guess(data)), want)] += 1
    names = list(tools)
    print("| encoding | files | " + " | ".join(f"{t} exact / near" for t in names) + " |")
    print("|---|---|" + "---|" * len(names))
    totals = collections.defaultdict(collections.Counter)
    for codec in sorted({c for c, _ in results}):
        files = sum(results[(codec, "subweave")].values())
        cells = []
        for tool in names:
            r = results[(codec, tool)]
            totals[tool].update(r)
            cells.append(f"{r['exact']} / {r['near']}")
        print(f"| {codec} | {files} | " + " | ".join(cells) + " |")
    files = sum(totals["subweave"].values())
    print(f"| **all** | {files} | " + " | ".join(
        f"**{totals[t]['exact']} / {totals[t]['near']}** ({100 * totals[t]['exact'] / files:.1f} % exact)" for t in names) + " |")


if __name__ == "__main__":
    main()
