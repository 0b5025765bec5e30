#!/usr/bin/env python3
"""Writes the ugly-SubRip corpus in Fixtures/subtitles/wild: the layouts, markup and encodings
found in the wild. Each file's expected cues are written by hand in
Tests/TimedTextTests/SubRipCorpusTests.swift.

    python3 Fixtures/subtitles/make-corpus.py
"""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wild")
os.makedirs(HERE, exist_ok=True)


def put(name, text, encoding="utf-8", bom=b"", newline="\n"):
    data = bom + text.replace("\n", newline).encode(encoding)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


put("counters-wrong.srt", """5
00:00:01,000 --> 00:00:02,000
First

5
00:00:03,000 --> 00:00:04,000
Second (repeated counter)

00:00:05,000 --> 00:00:06,000
Third (no counter)

x
00:00:07,000 --> 00:00:08,000
Fourth (garbage counter)
""")

put("no-blank-lines.srt", """1
00:00:01,000 --> 00:00:02,000
One
2
00:00:03,000 --> 00:00:04,000
Two
two, line 2
3
00:00:05,000 --> 00:00:06,000
Three
""")

put("blank-lines-inside.srt", """1
00:00:01,000 --> 00:00:03,000
Top line


Bottom line

2
00:00:04,000 --> 00:00:05,000
Next
""")

put("dot-millis.srt", """1
00:00:01.500 --> 00:00:02.250
Dots
2
00:00:03:100 --> 00:00:04:200
Colons
3
0:0:5,5 --> 0:0:6,75
Short fields
""")

put("tight-arrow.srt", """1
00:00:01,000-->00:00:02,000
Tight
2
00:00:03,000  --->  00:00:04,000
Long arrow
""")

put("trailing-spaces.srt", "1   \n00:00:01,000 --> 00:00:02,000   \nTrailing   \nspaces\t\n   \n2\n00:00:03,000 --> 00:00:04,000\nEnd  \n")

put("coordinates.srt", """1
00:00:01,000 --> 00:00:02,000 X1:100 X2:600 Y1:050 Y2:080
Positioned
""")

put("no-final-newline.srt", "1\n00:00:01,000 --> 00:00:02,000\nNo newline at the end")

put("out-of-order.srt", """2
00:00:05,000 --> 00:00:06,000
Later

1
00:00:01,000 --> 00:00:02,000
Earlier

3
00:00:03,000 --> 00:00:04,000
Middle
""")

put("overlapping.srt", """1
00:00:01,000 --> 00:00:05,000
Long

2
00:00:02,000 --> 00:00:03,000
Inside
""")

put("markup.srt", """1
00:00:01,000 --> 00:00:02,000
<i>Italic</i> <B>bold</B> <u>under</u>

2
00:00:03,000 --> 00:00:04,000
<font color="#ffff00">Yellow</font> <font color=red face="Arial">Red</font> <font color="#123456">Odd</font>

3
00:00:05,000 --> 00:00:06,000
{\\an8}Top centre

4
00:00:07,000 --> 00:00:08,000
{\\an1}{\\pos(10,10)\\c&H00FF00&}Bottom left

5
00:00:09,000 --> 00:00:10,000
Tom & Jerry <3 x > y

6
00:00:11,000 --> 00:00:12,000
<i>Unclosed italic
""")

put("bad-timing.srt", """1
00:00:01,000 --> 00:00:02,000
Good

2
00:00:03,000 --> 00:00:xx,000
Bad timing

3
00:00:06,000 --> 00:00:05,000
Backwards

4
00:00:07,000 --> 00:00:08,000
Good again
""")

SAMPLE = """1
00:00:01,000 --> 00:00:02,000
{text}
"""
put("utf8.srt", SAMPLE.format(text="Café – naïve “quotes” €"))
put("utf8-bom.srt", SAMPLE.format(text="Café – naïve “quotes” €"), bom=b"\xef\xbb\xbf")
put("utf16le-bom.srt", SAMPLE.format(text="Café – naïve “quotes” €"), "utf-16-le", b"\xff\xfe", "\r\n")
put("utf16be-bom.srt", SAMPLE.format(text="Café – naïve “quotes” €"), "utf-16-be", b"\xfe\xff", "\r\n")
put("utf32le-bom.srt", SAMPLE.format(text="Café – naïve “quotes” €"), "utf-32-le", b"\xff\xfe\x00\x00")
put("cp1252.srt", SAMPLE.format(text="Café – naïve “quotes” € œuvre"), "cp1252", newline="\r\n")
put("cp1250.srt", SAMPLE.format(text="Příliš žluťoučký kůň"), "cp1250", newline="\r\n")
put("cp1251.srt", SAMPLE.format(text="Привет, мир"), "cp1251", newline="\r\n")
put("latin1.srt", SAMPLE.format(text="Señor Müller"), "latin-1")
put("cr-only.srt", SAMPLE.format(text="Old Mac\nline endings"), newline="\r")
print("corpus written to", HERE)
