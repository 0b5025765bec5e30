#!/usr/bin/env python3
"""Builds the real-text encoding corpus: SubRip files of translated sentences taken from the
gettext catalogs of Debian packages (/usr/share/locale/<lang>/LC_MESSAGES/*.mo: real text that
translators wrote, in every language a vendor sends subtitles in), written in UTF-8 and packed into
corpus.tar.xz beside this script.

    python3 Fixtures/subtitles/encodings/make-corpus.py

Each language's catalogs are split by file name into a training half (`train/`, what the detector
and its calibration were tuned on) and a held-out half (`test/`, never looked at while tuning).
Only sentences that every legacy encoding of the language can write are kept (ENCODINGS), so one
UTF-8 file stands for all of them; EncodingCorpusTests and Benchmarks/encoding-bench.py encode
each file into each of its encodings. Files are 2-4 KB of cues (the size of a short subtitle
file); format specifiers (%s, %d, {0}) and markup are removed.
"""
import gettext, glob, hashlib, io, os, random, re, sys, tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
LOCALES = "/usr/share/locale"

# The legacy encodings each language's subtitles come in (Python codec names).
ENCODINGS = {
    "cs": ["cp1250", "iso8859_2"], "sk": ["cp1250", "iso8859_2"], "pl": ["cp1250", "iso8859_2"],
    "hu": ["cp1250", "iso8859_2"], "hr": ["cp1250", "iso8859_2"], "sl": ["cp1250", "iso8859_2"],
    "ro": ["cp1250", "iso8859_2"],
    "ru": ["cp1251", "koi8_r", "iso8859_5", "cp866", "mac_cyrillic"], "uk": ["cp1251", "mac_cyrillic"],
    "bg": ["cp1251", "iso8859_5", "mac_cyrillic"], "sr": ["cp1251"],
    "el": ["cp1253"], "tr": ["cp1254"], "he": ["cp1255"], "ar": ["cp1256"], "fa": ["cp1256"],
    "lt": ["cp1257"], "lv": ["cp1257"], "et": ["cp1257"],
    "fr": ["cp1252"], "de": ["cp1252"], "es": ["cp1252"], "pt": ["cp1252"], "it": ["cp1252"],
    "nl": ["cp1252"], "sv": ["cp1252"], "da": ["cp1252"], "fi": ["cp1252"], "ca": ["cp1252"],
    "th": ["tis_620"],
    "ja": ["cp932", "euc_jp", "iso2022_jp"], "ko": ["cp949", "euc_kr", "iso2022_kr"],
    "zh_CN": ["gb18030"], "zh_TW": ["big5"],
}
FILES_PER_SPLIT = 6
FORMAT = re.compile(r"%(\d+\$)?[-+ #0]*\d*(\.\d+)?[hlLqjzt]*[a-zA-Z%]|\{[^}]*\}|<[^>]*>|&[a-z]+;|\$\{?\w+\}?|_")


def sentences(path):
    try:
        with open(path, "rb") as f:
            catalog = gettext.GNUTranslations(f)._catalog
    except Exception:
        return []
    out = []
    for key, value in catalog.items():
        original = key[0] if isinstance(key, tuple) else key
        if not original or not value or value == original:
            continue  # the header, and untranslated entries
        for line in value.splitlines():
            line = " ".join(FORMAT.sub("", line).split()).strip(" :;,-")
            letters = sum(1 for c in line if c.isalpha())
            if len(line) < 12 or letters < len(line) * 0.6 or "\\" in line or "~" in line:
                continue
            out.append(line)
    return out


def encodable(line, codecs):
    try:
        for codec in codecs:
            if line.encode(codec).decode(codec) != line:
                return False
        return True
    except (UnicodeEncodeError, UnicodeDecodeError):
        return False


def srt(lines, rng):
    blocks, start = [], 1000
    for number, (a, b) in enumerate(lines, 1):
        end = start + rng.randint(1500, 4000)
        stamp = lambda ms: f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"
        blocks.append(f"{number}\n{stamp(start)} --> {stamp(end)}\n{a}\n" + (f"{b}\n" if b else ""))
        start = end + rng.randint(200, 3000)
    return "\n".join(blocks)


def files(pool, rng):
    """FILES_PER_SPLIT SubRip files of 2-4 KB (UTF-8) from the sentences of `pool`."""
    rng.shuffle(pool)
    made, i = [], 0
    for _ in range(FILES_PER_SPLIT):
        target = rng.randint(2048, 4096)
        lines, size = [], 0
        while size < target and i + 1 < len(pool):
            pair = (pool[i], pool[i + 1] if rng.random() < 0.4 else None)
            i += 2 if pair[1] else 1
            lines.append(pair)
            size += len((pair[0] + (pair[1] or "")).encode("utf-8")) + 40
        if size >= 2048:
            made.append(srt(lines, rng))
    return made


def main():
    archive = io.BytesIO()
    counts = []
    with tarfile.open(fileobj=archive, mode="w:xz") as tar:
        def add(name, text):
            data = text.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
        manifest = []
        for lang, codecs in sorted(ENCODINGS.items()):
            split = {"train": [], "test": []}
            for mo in sorted(glob.glob(f"{LOCALES}/{lang}/LC_MESSAGES/*.mo")):
                half = "train" if hashlib.sha1(os.path.basename(mo).encode()).digest()[0] % 2 == 0 else "test"
                split[half] += [s for s in sentences(mo) if encodable(s, codecs)]
            for half in ("train", "test"):
                pool = sorted(set(split[half]))
                made = files(pool, random.Random(f"{lang}-{half}"))
                for n, text in enumerate(made):
                    name = f"{half}/{lang}/{n:02d}.srt"
                    add(name, text)
                    manifest.append(f"{name}\t{lang}\t{','.join(codecs)}")
                counts.append(f"{lang} {half}: {len(made)} files from {len(pool)} sentences")
        add("manifest.tsv", "\n".join(manifest) + "\n")
    with open(os.path.join(HERE, "corpus.tar.xz"), "wb") as out:
        out.write(archive.getvalue())
    print("\n".join(counts))
    print(f"corpus.tar.xz: {len(archive.getvalue())} bytes, {len(manifest)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
