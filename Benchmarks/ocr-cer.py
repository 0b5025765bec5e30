#!/usr/bin/env python3
"""Character error rate of subtitle pictures read back by OCR, per language, font and size.

    python3 Benchmarks/ocr-cer.py [--binary PATH]

Renders known subtitle lines (English, French, German; DejaVu Sans and Serif at 20, 24, 28, 32
and 40 points; one- and two-line cues) into DVD subpictures with spumux (dvdauthor) on a 720x576 PAL
frame, extracts them as VobSub .idx/.sub with mkvextract (mkvtoolnix), reads them with
`subweave cues --json --language`, and counts character edits (Levenshtein; spumux wraps long lines
itself, so lines are compared as words) against the text rendered, and how far each cue's start
and end are from the rendered times. Needs ffmpeg, dvdauthor, mkvtoolnix, fonts-dejavu-core and
tesseract-ocr with -eng, -fra, -deu.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import release_subweave  # noqa: E402

TEXTS = {
    "en": ["I never said she stole my money.", "Where were you on the night\nof the fourteenth?", "Stop! Don't move, or I'll shoot.",
           "It's 7:30 already - we're late."],
    "fr": ["Je ne sais pas où il est allé.", "Qu'est-ce que tu fais ici,\nà cette heure-ci ?", "Ça ne se reproduira plus, c'est promis."],
    "de": ["Ich weiß nicht, wo er hingegangen ist.", "Was machst du hier\num diese Uhrzeit?", "Das wird nie wieder passieren, versprochen."],
}


def distance(a, b):
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[:], i
        for j, cb in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
    return row[-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", help="a subweave binary (default: build the release one)")
    args = parser.parse_args()
    binary = args.binary or release_subweave()
    work = tempfile.mkdtemp(prefix="subweave-ocr-")
    home = os.path.join(work, "home")
    os.makedirs(os.path.join(home, ".spumux"))
    movie = os.path.join(work, "movie.mpg")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=black:s=720x576:r=25", "-t", "20", "-target", "pal-dvd", movie],
                   check=True)
    start = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=start_time", "-of", "default=nw=1:nk=1", movie],
                                 capture_output=True, text=True, check=True).stdout)
    totals = {}
    worst_time = 0.0
    print("| language | font | size | characters | wrong | CER |")
    print("|---|---|---|---|---|---|")
    for font in ["DejaVuSans.ttf", "DejaVuSerif.ttf"]:
        shutil.copy("/usr/share/fonts/truetype/dejavu/" + font, os.path.join(home, ".spumux", font))
        for size in [20, 24, 28, 32, 40]:
            for language, lines in TEXTS.items():
                srt = os.path.join(work, "s.srt")
                with open(srt, "w") as f:
                    for i, text in enumerate(lines):
                        f.write(f"{i + 1}\n00:00:{2 + i * 4:02d},000 --> 00:00:{4 + i * 4:02d},500\n{text}\n\n")
                with open(os.path.join(work, "c.xml"), "w") as f:
                    f.write(f'<subpictures format="PAL"><stream><textsub filename="{srt}" characterset="UTF-8" fontsize="{size}" font="{font}" '
                            'horizontal-alignment="center" vertical-alignment="bottom" left-margin="60" right-margin="60" top-margin="40" '
                            'bottom-margin="40" subtitle-fps="25" movie-fps="25" movie-width="720" movie-height="574"/></stream></subpictures>')
                muxed, mkv, idx = (os.path.join(work, n) for n in ("o.mpg", "o.mkv", "o.idx"))
                with open(movie, "rb") as src, open(muxed, "wb") as dst:
                    subprocess.run(["spumux", os.path.join(work, "c.xml")], stdin=src, stdout=dst, stderr=subprocess.DEVNULL, check=True,
                                   env=dict(os.environ, HOME=home))
                subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-copyts", "-i", muxed, "-map", "0:s", "-c", "copy", mkv], check=True)
                subprocess.run(["mkvextract", mkv, "tracks", "0:" + idx], check=True, stdout=subprocess.DEVNULL)
                out = subprocess.run([binary, "cues", idx, "--json", "--language", language], capture_output=True, text=True, check=True)
                cues = json.loads(out.stdout)["cues"]
                wrong = sum(distance(c["text"].replace("\n", " "), t.replace("\n", " ")) for c, t in zip(cues, lines))
                wrong += sum(len(t) for t in lines[len(cues):])
                for i, cue in enumerate(cues):
                    worst_time = max(worst_time, abs(cue["startTime"] - (2 + i * 4 + start)), abs(cue["endTime"] - (4.5 + i * 4 + start)))
                count = sum(len(t) for t in lines)
                seen = totals.setdefault(language, [0, 0])
                seen[0] += count
                seen[1] += wrong
                print(f"| {language} | {font[:-4]} | {size} | {count} | {wrong} | {100 * wrong / count:.2f} % |")
    for language, (count, wrong) in totals.items():
        print(f"{language}: {wrong} of {count} characters wrong, CER {100 * wrong / count:.2f} %")
    print(f"cue times: at most {worst_time * 1000:.1f} ms from the rendered times (a frame is 40 ms)")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
