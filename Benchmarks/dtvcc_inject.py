"""Adds CEA-708 (DTVCC) caption data to an H.264 stream's A/53 SEI, for the captions benchmark.

    python3 Benchmarks/dtvcc_inject.py IN.ts OUT.ts

Every access unit that carries an A/53 cc_data SEI (as x264 writes it with -a53cc) gets DTVCC
packets appended to its cc_data: service 1 mirrors a caption a second (DefineWindow hidden with
its text, DisplayWindows half a second later, HideWindows before the next), service 2 a second
language, two bytes a triplet, as CTA-708 carries them. The stream is demuxed to Annex B, edited
(emulation prevention removed and put back), and muxed again with ffmpeg.
"""
import os, subprocess, sys, tempfile


def unescape(data):
    out, zeros = bytearray(), 0
    for b in data:
        if zeros >= 2 and b == 3:
            zeros = 0
            continue
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def escape(data):
    out, zeros = bytearray(), 0
    for b in data:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def packet(sequence, service, data):
    """A caption channel packet with one service block (CTA-708-E §5, §6.2)."""
    body = bytes([service << 5 | len(data)]) + bytes(data)
    if (len(body) + 1) % 2:
        body += b"\x00"
    size = (len(body) + 1) // 2
    return bytes([(sequence & 3) << 6 | (size & 0x3F)]) + body


def triplets(pkt):
    out = bytearray()
    for i in range(0, len(pkt), 2):
        out += bytes([0xFF if i == 0 else 0xFE, pkt[i], pkt[i + 1] if i + 1 < len(pkt) else 0])
    return bytes(out), len(pkt) // 2 + len(pkt) % 2


def commands(frame):
    """The 708 commands of a frame: (service, bytes) pairs."""
    n, phase = divmod(frame, 30)
    text = f"Caption {n}".encode()
    if phase == 0:
        return [(1, [0x98, 0x18, 60, 0, 0x01, 0x1F, 0x00] + list(text)), (2, [0x98, 0x18, 10, 0, 0x01, 0x1F, 0x00] + list(b"Subtitulo ") + list(str(n).encode()))]
    if phase == 10:
        return [(1, [0x89, 0x01]), (2, [0x89, 0x01])]
    if phase == 28:
        return [(1, [0x8A, 0x01, 0x88, 0x01]), (2, [0x8C, 0x01])]  # service 1: hide and clear; 2: delete
    return []


def edit_sei(nal, frame, sequence):
    """Appends the frame's DTVCC triplets to an A/53 SEI NAL (H.264); returns (nal, sequence)."""
    rbsp = unescape(nal[1:])
    i = 0
    out = bytearray(nal[:1])
    changed = False
    while i < len(rbsp) and rbsp[i] != 0x80:
        ptype = 0
        while rbsp[i] == 0xFF:
            ptype += 255; i += 1
        ptype += rbsp[i]; i += 1
        psize = 0
        while rbsp[i] == 0xFF:
            psize += 255; i += 1
        psize += rbsp[i]; i += 1
        payload = bytearray(rbsp[i:i + psize])
        i += psize
        if ptype == 4 and payload[3:8] == b"GA94\x03" and not changed:
            count = payload[8] & 0x1F
            extra, added = bytearray(), 0
            for service, data in commands(frame):
                pkt = packet(sequence, service, data)
                sequence += 1
                t, n = triplets(pkt)
                extra += t
                added += n
            if added and count + added <= 31:
                start = 10 + 3 * count
                payload = payload[:8] + bytes([(payload[8] & 0xE0) | (count + added)]) + payload[9:start] + extra + payload[start:]
                changed = True
        size = len(payload)
        header = bytearray([ptype])
        while size >= 255:
            header.append(255); size -= 255
        header.append(size)
        out += header + payload
    out += b"\x80"
    return bytes(out[:1]) + escape(out[1:]), sequence


def main(source, target):
    with tempfile.TemporaryDirectory() as work:
        raw = os.path.join(work, "in.h264")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", source, "-map", "0:v", "-c", "copy", "-f", "h264", raw], check=True)
        data = open(raw, "rb").read()
        starts = []
        i = data.find(b"\x00\x00\x01")
        while i >= 0:
            starts.append(i + 3)
            i = data.find(b"\x00\x00\x01", i + 3)
        out = bytearray()
        frame, sequence = -1, 0
        for k, s in enumerate(starts):
            end = starts[k + 1] - 3 if k + 1 < len(starts) else len(data)
            nal = data[s:end]
            while nal.endswith(b"\x00") and k + 1 < len(starts):
                nal = nal[:-1]
            kind = nal[0] & 0x1F if nal else 0
            if kind == 9:
                frame += 1  # an access unit delimiter starts each access unit
            if kind == 6 and frame >= 0:
                nal, sequence = edit_sei(nal, frame, sequence)
            out += b"\x00\x00\x00\x01" + nal
        edited = os.path.join(work, "out.h264")
        open(edited, "wb").write(out)
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-fflags", "+genpts", "-r", "30000/1001", "-i", edited, "-c", "copy", "-f", "mpegts", target], check=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
