#!/usr/bin/env python3
"""Writes the hand-made hostile inputs under Fixtures/fuzz/<target>/, one file per trap the
"unbreakable input" issue found (each named after what it broke). `swift test` replays every file
here through the fuzz entries (FuzzRegressionTests); crash inputs found by Scripts/fuzz.sh are
copied here beside them, named after the bug.

    python3 Fixtures/fuzz/make-regressions.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    os.makedirs(os.path.join(HERE, target), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(HERE, target, name), "wb") as f:
        f.write(data)


# WebVTT: timestamps with 11-12 hour digits (timing line and cue-text tag); markup that could
# write a blank line or "-->" into a segment; NUL and C0 controls.
write("webvtt", "hours-overflow-timing.vtt", "WEBVTT\n\n00:00:05.000 --> 99999999999:00:08.000\nx\n")
write("webvtt", "hours-overflow-tag.vtt", "WEBVTT\n\n00:00:05.000 --> 00:00:08.000\na <999999999999:00:00.000>b\n")
write("webvtt", "class-makes-arrow.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nA <c.--\n>B\n")
write("webvtt", "voice-makes-arrow.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n<v -->x</v>\n")
write("webvtt", "unknown-tag-line.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n<unknown>\nWorld\n")
write("webvtt", "controls.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\na\x00b\x01c\x1bd\x7fe\n")
write("webvtt", "line-beyond-double.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000 line:" + "9" * 400 + "\nx\n")

# SubRip: a line holding only {\an8} or only a dropped tag, huge hours, controls.
write("subrip", "an8-only-line.srt", "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}\nText below\n")
write("subrip", "dropped-tag-line.srt", "1\n00:00:01,000 --> 00:00:02,000\nTop\n<invalid_tag>\nBottom\n")
write("subrip", "hours-overflow.srt", "1\n9999999999:00:01,000 --> 9999999999:00:02,000\nx\n")
write("subrip", "controls.srt", "1\n00:00:01,000 --> 00:00:02,000\na\x00b\x1b[31mred\n")

# SCC: unbounded and negative timecode fields; a pair whose first byte is a null with parity.
write("scc", "hours-overflow.scc", "Scenarist_SCC V1.0\n\n99999999999999:00:00:00\t9420 9420 94ae\n")
write("scc", "negative-fields.scc", "Scenarist_SCC V1.0\n\n00:-1:00:00\t9420 9420\n00:00:-5;00\t942c\n")
write("scc", "null-first-byte.scc", "Scenarist_SCC V1.0\n\n00:00:01:00\t9420 9420 94ae 94ae 9470 8041 8080 942f 942f\n")

# M3U8: byte range that overflows, sequence numbers near Int.max, an EXTINF sum past any clock,
# a huge target duration, definitions that expand exponentially, lenient attribute lists, and
# a sequence tag after the first segment.
write("m3u8", "byterange-overflow.m3u8",
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\n#EXTINF:4,\na.ts\n"
      "#EXT-X-BYTERANGE:100\n#EXTINF:4,\na.ts\n")
write("m3u8", "sequence-near-max.m3u8",
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n"
      "#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807\n#EXTINF:4,\na.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:4,\nb.ts\n")
write("m3u8", "extinf-sum-overflow.m3u8",
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n" + "#EXTINF:9999999999.999,\na.ts\n" * 2000)
write("m3u8", "huge-target-duration.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:100000000000000\n#EXTINF:4,\na.ts\n")
defines = "".join('#EXT-X-DEFINE:NAME="v%d",VALUE="{$v%d}{$v%d}"\n' % (i, i - 1, i - 1) for i in range(1, 31))
write("m3u8", "define-exponential.m3u8",
      '#EXTM3U\n#EXT-X-DEFINE:NAME="v0",VALUE="x"\n' + defines + "#EXT-X-STREAM-INF:BANDWIDTH=1\n{$v30}.m3u8\n")
write("m3u8", "lenient-attributes.m3u8", '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,P= "\nv.m3u8\n'
      '#EXT-X-STREAM-INF:BANDWIDTH=2,A= "x" y\nw.m3u8\n')
write("m3u8", "quoted-value-spaces.m3u8", '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,P= "q"\nv.m3u8\n')
write("m3u8", "sequence-after-segment.m3u8",
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-MEDIA-SEQUENCE:5\n#EXTINF:4,\nb.ts\n")


# MPEG-TS: a PES whose PES_header_data_length exceeds its PES_packet_length.
def ts_packet(pid, payload, unit_start, counter=0):
    header = bytes([0x47, (0x40 if unit_start else 0) | (pid >> 8), pid & 0xFF, 0x10 | (counter & 0x0F)])
    room = 184
    if len(payload) < room:
        stuffing = room - len(payload)
        header = header[:3] + bytes([0x30 | (counter & 0x0F), stuffing - 1]) + (bytes([0]) if stuffing > 1 else b"") + b"\xff" * max(0, stuffing - 2)
    return header + payload[:room]


def section(table_id, body):
    length = len(body) + 5 + 4
    return bytes([0, table_id, 0xB0 | (length >> 8), length & 0xFF, 0, 1, 0xC1, 0, 0]) + body + b"\0\0\0\0"


pat = ts_packet(0, section(0x00, bytes([0, 1, 0xE0 | 0x10, 0x00])), True)
pmt = ts_packet(0x1000, section(0x02, bytes([0xE1, 0x00, 0xF0, 0x00, 0x1B, 0xE1, 0x00, 0xF0, 0x00])), True)
pts = 900000
pts_bytes = bytes([0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF, ((pts >> 14) & 0xFE) | 1, (pts >> 7) & 0xFF, ((pts << 1) & 0xFE) | 1])
# PES_packet_length 8, PES_header_data_length 200: the header claims more than the packet holds.
pes = bytes([0, 0, 1, 0xE0, 0, 8, 0x80, 0x80, 200]) + pts_bytes + b"\0\0\0\x01\x09\xf0"
stream = pat + pmt + ts_packet(0x100, pes, True) + ts_packet(0x100, pes, True, 1) + ts_packet(0x100, pes, True, 2)
write("mpegts", "pes-header-longer-than-packet.ts", stream)


# ISO BMFF (the fuzz target's layout: 4-byte init length, init, segment).
def box(kind, body):
    return struct.pack(">I", 8 + len(body)) + kind + body


def isobmff(init, segment):
    return struct.pack(">I", len(init)) + init + segment


write("isobmff", "largesize-near-max.mp4", isobmff(b"", struct.pack(">I", 1) + b"moov" + struct.pack(">Q", 2**63 - 16) + b"\0" * 32))
empty_tkhd = box(b"moov", box(b"trak", box(b"mdia", box(b"mdhd", b"")) + box(b"tkhd", b"")))
write("isobmff", "empty-tkhd-mdhd.mp4", isobmff(empty_tkhd, box(b"moof", b"")))
mdhd = box(b"mdhd", bytes(4) + bytes(8) + struct.pack(">I", 1) + bytes(8))
tkhd = box(b"tkhd", bytes(4) + bytes(8) + struct.pack(">I", 1) + bytes(60))
hdlr = box(b"hdlr", bytes(8) + b"vide" + bytes(12))
init = box(b"moov", box(b"trak", tkhd + box(b"mdia", mdhd + hdlr)))
tfhd = box(b"tfhd", struct.pack(">I", 0) + struct.pack(">I", 1))
tfdt = box(b"tfdt", bytes([1, 0, 0, 0]) + struct.pack(">Q", 2**62 - 1))
trun = box(b"trun", struct.pack(">I", 0x000100) + struct.pack(">I", 1) + struct.pack(">I", 1000))
write("isobmff", "tfdt-overflows-at-90khz.mp4", isobmff(init, box(b"moof", box(b"traf", tfhd + tfdt + trun))))
huge_trun = box(b"trun", struct.pack(">I", 0x000000) + struct.pack(">I", 0xFFFFFFFF))
write("isobmff", "trun-count-without-fields.mp4", isobmff(init, box(b"moof", box(b"traf", tfhd + tfdt + huge_trun))))

# ASS/SSA: hours past any MediaTime, overrides with values that are not numbers, unclosed blocks, a drawing left open.
write("ass", "huge-hours-and-bad-overrides.ass",
      b"[Script Info]\n[Events]\nFormat: Layer, Start, End, Style, Text\n"
      b"Dialogue: 0,99999999999:00:00.00,0:00:01.00,Default,x\n"
      b"Dialogue: 0,0:00:00.00,0:00:01.00,Default,{\\pos(1e308,nan)}{\\an99}{{{\\p1}\n")
# TTML: frame and tick rates near zero, times past any MediaTime, frames past any count.
write("ttml", "huge-times-and-rates.ttml",
      b'<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="0.0000001" '
      b'ttp:tickRate="1e-300"><body><div begin="99999999999999999999h"><p begin="1e308s" end="1t">x</p>'
      b'<p begin="00:00:00:99999999999999" end="5f">y</p></div></body></tt>')
# TTML: a processing instruction without data (Foundation's XML parser read a null pointer), and
# internal entities that expand a billion times (refused: no document type declarations).
write("ttml", "processing-instruction-without-data.ttml",
      b'<?xm?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><p begin="0s" end="1s">x<?pi?></p></body></tt>\n')
write("ttml", "billion-laughs.ttml",
      b'<?xml version="1.0"?><!DOCTYPE tt [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
      b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>'
      b'<tt xmlns="http://www.w3.org/ns/ttml"><body><p begin="0s" end="1s">&d;&d;&d;&d;</p></body></tt>\n')


# CEA-708 (the dtvcc target: a flags byte, then a cc_data pair; see FuzzEntry.dtvcc). A packet
# whose size code claims more than arrives before the next start; a block claiming more than its
# packet; an extended service header with nothing after it; a DefineWindow cut off mid-parameters;
# EXT1 at the end of a block; a delay never cancelled.
def dtvcc(pairs):
    """(start, byte1, byte2) triples as the target reads them: 2 triplets an access unit."""
    return bytes(b for start, a, c in pairs for b in ((1 if start else 0) | (2 << 5), a, c))


write("dtvcc", "packet-cut-by-next-start.bin", dtvcc([(True, 0x0A, 0x23), (False, 0x98, 0x38), (True, 0x02, 0x21), (False, 0x89, 0x01)]))
write("dtvcc", "block-longer-than-packet.bin", dtvcc([(True, 0x02, 0x3F), (False, 0x41, 0x42)]))
write("dtvcc", "extended-header-at-end.bin", dtvcc([(True, 0x01, 0xE1)]))
write("dtvcc", "define-window-cut-off.bin", dtvcc([(True, 0x03, 0x24), (False, 0x98, 0x38), (False, 0x00, 0x00)]))
write("dtvcc", "ext1-at-block-end.bin", dtvcc([(True, 0x02, 0x22), (False, 0x41, 0x10)]))
write("dtvcc", "delay-never-cancelled.bin", dtvcc([(True, 0x06, 0x2A), (False, 0x98, 0x38), (False, 0x00, 0x00), (False, 0x1F, 0x00),
                                                  (False, 0x8D, 0xFF), (False, 0x89, 0x01), (False, 0x41, 0x42)]))


# Clock rates (the rate target: `rate=` text). A zero denominator, a ratio outside 0.5...2, digits
# that overflow 64 bits when the two fractions are multiplied out, a second dot, a sign.
for name, text in [("zero-denominator", "25/0"), ("outside-range", "1/3"), ("overflow", "999999.999999999/0.000000001"),
                   ("two-dots", "23.976.5/25"), ("signed", "-25/23.976"), ("empty-sides", "/"), ("ntsc-both", "29.97/23.976")]:
    write("rate", name + ".txt", text)


# The sync stages (the sync target: two thirds PCM, then cue times in tenths). Nothing at all;
# one odd byte; full-scale square PCM with cues that all start and end together; a second of
# silence with cues an hour and a half away.
write("sync", "empty.bin", b"")
write("sync", "odd-byte.bin", b"\x01")
write("sync", "square-and-point-cues.bin", struct.pack("<h", 32767) * 8000 + struct.pack("<h", -32768) * 8000
      + struct.pack(">HH", 50, 50) * 4000)
write("sync", "silence-and-far-cues.bin", b"\x00" * 16000 + struct.pack(">HH", 65000, 65535) * 2000)


# Packed audio (the mpegts target reads an opening ID3 tag's timestamp): a tag whose size runs past
# the data, a PRIV frame cut inside its owner, an extended header longer than the tag.
write("mpegts", "id3-size-past-end.bin", b"ID3\x04\x00\x00\x7f\x7f\x7f\x7fPRIV\x00\x00\x00\x35\x00\x00com.apple")
write("mpegts", "id3-priv-cut.bin", b"ID3\x03\x00\x00\x00\x00\x00\x20PRIV\x00\x00\x00\x40\x00\x00com.apple.streaming.transport")
write("mpegts", "id3-extended-header-long.bin", b"ID3\x04\x00\x40\x00\x00\x00\x10\x7f\x7f\x7f\x7f" + b"\x00" * 12)

# Low-latency HLS: parts, a preload hint and server control, mirrored by the subtitle playlist.
write("m3u8", "low-latency-parts.m3u8",
      "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.0,PART-HOLD-BACK=1.2\n"
      "#EXT-X-PART-INF:PART-TARGET=0.4\n#EXTINF:2.0,\na.ts\n#EXT-X-PART:DURATION=0.4,URI=\"b.0.ts\",INDEPENDENT=YES\n"
      "#EXT-X-PART:DURATION=0.40000,URI=\"b.1.ts\",BYTERANGE=\"100@0\"\n#EXTINF:0.8,\nb.ts\n"
      "#EXT-X-PART:DURATION=99999999999,URI=\"c.0.ts\"\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"c.1.ts\"\n")

# Bitmap subtitles. PGS: a 40x20 white box shown from 1 s to 3 s (a display set, then an empty one).
def pgs_segment(kind, pts, body):
    return b"PG" + struct.pack(">IIBH", pts, 0, kind, len(body)) + body


def u16(v):
    return struct.pack(">H", v)


box = b"".join(bytes([0, 0xC0, 40, 1]) + b"\x00\x00" for _ in range(20))
write("pgs", "hand-made-40x20.sup",
      pgs_segment(0x16, 90000, u16(720) + u16(576) + b"\x10" + u16(0) + b"\x80\x00\x00\x01" + u16(0) + b"\x00\x00" + u16(100) + u16(500))
      + pgs_segment(0x17, 90000, b"\x01\x00" + u16(100) + u16(500) + u16(40) + u16(20))
      + pgs_segment(0x14, 90000, b"\x00\x00\x01\xeb\x80\x80\xff")
      + pgs_segment(0x15, 90000, u16(0) + b"\x00\xc0" + struct.pack(">I", len(box) + 4)[1:] + u16(40) + u16(20) + box)
      + pgs_segment(0x80, 90000, b"")
      + pgs_segment(0x16, 270000, u16(720) + u16(576) + b"\x10" + u16(1) + b"\x00\x00\x00\x00")
      + pgs_segment(0x80, 270000, b""))

# (vobsub/spumux-two-cues.sub is spumux's own output: `BitmapSubtitles.vobSub` in Tests/TestSupport makes
# it from two SubRip cues, "Hello there, world!" and a two-line one, in DejaVu Sans 28.)
# VobSub: one pack whose private stream 1 carries a subpicture unit of an 8x2 picture (colour 1),
# shown at once and stopped after 2 s (date 176 x 1024 ticks).
rle = bytes([0x21, 0x00])  # the 8-bit code 0x21: a run of 8 pixels of colour 1 (the row), then padding
control_at = 4 + len(rle) * 2
control = (u16(0) + u16(control_at) + bytes([0x03, 0x32, 0x10, 0x04, 0xFF, 0xF0, 0x05]) + bytes([0x00, 0x00, 0x07, 0x00, 0x00, 0x01])
           + bytes([0x06]) + u16(4) + u16(4 + len(rle)) + bytes([0x01, 0xFF]))
stop = u16(176) + u16(control_at + len(control)) + bytes([0x02, 0xFF])
control = control[:2] + u16(control_at + len(control)) + control[4:]
unit_body = rle + rle + control + stop
unit = u16(4 + len(unit_body)) + u16(control_at) + unit_body
payload = b"\x20" + unit
pes = b"\x00\x00\x01\xbd" + u16(len(payload) + 8) + b"\x81\x80\x05\x21\x00\x01\x00\x01" + payload
write("vobsub", "hand-made-8x2.sub", b"\x00\x00\x01\xba\x44\x00\x04\x00\x04\x01\x01\x89\xc3\xf8" + pes)
