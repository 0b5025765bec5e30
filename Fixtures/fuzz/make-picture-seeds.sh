#!/usr/bin/env bash
# Remakes the fuzz seeds that real encoders write: a VobSub .sub that spumux (dvdauthor) draws from
# two SubRip cues in DejaVu Sans 28, and the same pictures as DVB subtitles in MPEG-TS (ffmpeg's
# dvbsub encoder, the subtitle stream alone). Needs ffmpeg, dvdauthor, mkvtoolnix, fonts-dejavu-core.
#   Fixtures/fuzz/make-picture-seeds.sh
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home/.spumux"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$work/home/.spumux/"
printf '1\n00:00:01,000 --> 00:00:03,000\nHello there, world!\n\n2\n00:00:04,000 --> 00:00:06,500\nA second cue\nwith two lines.\n' > "$work/s.srt"
cat > "$work/c.xml" <<XML
<subpictures format="PAL"><stream><textsub filename="$work/s.srt" characterset="UTF-8" fontsize="28" font="DejaVuSans.ttf"
horizontal-alignment="center" vertical-alignment="bottom" left-margin="60" right-margin="60" top-margin="40" bottom-margin="40"
subtitle-fps="25" movie-fps="25" movie-width="720" movie-height="574"/></stream></subpictures>
XML
ffmpeg -nostdin -loglevel error -y -f lavfi -i color=black:s=720x576:r=25 -t 8 -target pal-dvd "$work/movie.mpg"
HOME="$work/home" spumux "$work/c.xml" < "$work/movie.mpg" > "$work/spu.mpg" 2>/dev/null
ffmpeg -nostdin -loglevel error -y -copyts -i "$work/spu.mpg" -map 0:s -c copy "$work/s.mkv"
mkvextract "$work/s.mkv" tracks "0:$work/s.idx" > /dev/null
cp "$work/s.sub" vobsub/spumux-two-cues.sub
mkdir -p dvbsub
ffmpeg -nostdin -loglevel error -y -i "$work/spu.mpg" -map 0:s -c:s dvbsub -metadata:s:s:0 language=eng -f mpegts dvbsub/ffmpeg-two-cues.ts
