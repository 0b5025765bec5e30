#!/usr/bin/env bash
# Remakes the media fixtures under Fixtures/media and the example asset under Examples/basic with
# ffmpeg (Debian's ffmpeg 5.1 made the committed files). Small on purpose: 320x180, low bitrates.
#   Fixtures/make-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v ffmpeg >/dev/null || { echo "ffmpeg is required (apt-get install -y ffmpeg)" >&2; exit 1; }

ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
# GOPs of 2 s at 29.97 fps (60 frames) or 25 fps (video25).
video=(-c:v libx264 -preset veryfast -profile:v main -pix_fmt yuv420p -bf 3 -g 60 -keyint_min 60 -sc_threshold 0 -b:v 90k -maxrate 120k -bufsize 240k -threads 1)
video25=(-c:v libx264 -preset veryfast -profile:v main -pix_fmt yuv420p -bf 3 -g 50 -keyint_min 50 -sc_threshold 0 -b:v 90k -maxrate 120k -bufsize 240k -threads 1)
audio=(-c:a aac -b:a 32k -ac 1)
source() { # $1 seconds, $2 rate
  echo -f lavfi -i "testsrc2=size=320x180:rate=${2:-30000/1001}" -f lavfi -i "sine=frequency=440:sample_rate=48000" -t "$1"
}

rm -rf media && mkdir -p media

# 1. MPEG-TS, H.264 with B-frames, AAC audio: ffmpeg's muxer starts near 1.4 s.
mkdir -p media/ts-bframes
ff $(source 12) "${video[@]}" "${audio[@]}" -f hls -hls_time 4 -hls_playlist_type vod \
   -hls_segment_filename media/ts-bframes/seg_%03d.ts media/ts-bframes/prog.m3u8

# 2. Fragmented MP4 (CMAF-style) with an init segment: tfdt starts at 0 on the video timescale.
mkdir -p media/fmp4
ff $(source 12) "${video[@]}" "${audio[@]}" -f hls -hls_time 4 -hls_playlist_type vod -hls_segment_type fmp4 \
   -hls_fmp4_init_filename init.mp4 -hls_segment_filename media/fmp4/seg_%03d.m4s media/fmp4/prog.m3u8

# 3. A discontinuity between two encodes with different timestamp bases (10 s and 1000 s).
mkdir -p media/discontinuity
ff $(source 6 25) "${video25[@]}" "${audio[@]}" -output_ts_offset 10 -f hls -hls_time 2 -hls_playlist_type vod \
   -hls_segment_filename media/discontinuity/a_%03d.ts media/discontinuity/a.m3u8
ff $(source 6 25) "${video25[@]}" "${audio[@]}" -output_ts_offset 1000 -f hls -hls_time 2 -hls_playlist_type vod \
   -hls_segment_filename media/discontinuity/b_%03d.ts media/discontinuity/b.m3u8
{
  grep -v -e '#EXT-X-ENDLIST' media/discontinuity/a.m3u8
  echo '#EXT-X-DISCONTINUITY'
  sed -n '/#EXTINF/,$p' media/discontinuity/b.m3u8
} > media/discontinuity/prog.m3u8
rm media/discontinuity/a.m3u8 media/discontinuity/b.m3u8

# 4. PTS wrapping past 2^33 (95443.7 s) about 2.3 s in: offset 95440 s plus the muxer's 1.4 s.
mkdir -p media/pts-wrap
ff $(source 8 25) "${video25[@]}" "${audio[@]}" -output_ts_offset 95440 -f hls -hls_time 2 -hls_playlist_type vod \
   -hls_segment_filename media/pts-wrap/seg_%03d.ts media/pts-wrap/prog.m3u8

for dir in ts-bframes fmp4 discontinuity pts-wrap; do
  printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,CODECS="avc1.4d400d,mp4a.40.2"\nprog.m3u8\n' > "media/$dir/master.m3u8"
done
# fMP4 needs version 7 for EXT-X-MAP in the media playlist; the master says so too.
sed -i 's/#EXT-X-VERSION:3/#EXT-X-VERSION:7/' media/fmp4/master.m3u8

# A vendor-style master on the same media: CRLF, a comment, unknown tags and attributes, session
# data, an audio group, an existing subtitle group and an I-frame stream.
printf "#EXTM3U\r\n#EXT-X-VERSION:6\r\n#EXT-X-INDEPENDENT-SEGMENTS\r\n## Packaged by a vendor tool; keep this comment\r\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Test, with a comma\"\r\n#EXT-X-VENDOR-FUTURE-TAG:FOO=1,BAR=\"x,y\"\r\n\r\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"1\"\r\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"text\",NAME=\"Deutsch\",LANGUAGE=\"de\",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI=\"de/index.m3u8\"\r\n#EXT-X-STREAM-INF:BANDWIDTH=200000,AVERAGE-BANDWIDTH=150000,CODECS=\"avc1.4d400d,mp4a.40.2\",RESOLUTION=320x180,FRAME-RATE=29.970,AUDIO=\"aud\",SUBTITLES=\"text\",X-VENDOR-ATTR=7\r\nprog.m3u8\r\n# a comment between variants\r\n#EXT-X-STREAM-INF:BANDWIDTH=100000,CODECS=\"avc1.4d400d,mp4a.40.2\",RESOLUTION=320x180,AUDIO=\"aud\",SUBTITLES=\"text\"\r\nprog.m3u8\r\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=50000,CODECS=\"avc1.4d400d\",RESOLUTION=320x180,URI=\"iframe.m3u8\"\r\n" > media/ts-bframes/complex.m3u8

# An existing German subtitle rendition for the vendor-style master (complex.m3u8), as another
# packager would have left it: one WebVTT segment per video segment, mapped to the first video PTS.
mkdir -p media/ts-bframes/de
pts=$(ffprobe -v error -select_streams v:0 -show_entries packet=pts -of csv=p=0 media/ts-bframes/seg_000.ts | tr -d ',' | grep . | sort -n | head -1)
{
  printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n'
  i=0
  for d in $(grep '^#EXTINF' media/ts-bframes/prog.m3u8 | sed 's/#EXTINF:\([0-9.]*\),.*/\1/'); do
    printf '#EXTINF:%s,\nde_%d.vtt\n' "$d" "$i"
    printf 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:%s,LOCAL:00:00:00.000\n\n' "$pts" > "media/ts-bframes/de/de_$i.vtt"
    i=$((i + 1))
  done
  printf '#EXT-X-ENDLIST\n'
} > media/ts-bframes/de/index.m3u8
printf '00:00:01.000 --> 00:00:02.000\nGuten Tag\n\n' >> media/ts-bframes/de/de_0.vtt

# 5. fMP4 with and without B-frames, H.264 and HEVC: players show the first frame at tfdt plus its
#    composition offset (2 frames with x264 B-frames, more with x265).
mkdir -p media/fmp4-hevc media/fmp4-nob
ff $(source 12) -c:v libx265 -preset veryfast -tag:v hvc1 -pix_fmt yuv420p -x265-params "bframes=3:keyint=60:min-keyint=60:scenecut=0:log-level=error" \
   -b:v 90k -threads 1 "${audio[@]}" -f hls -hls_time 4 -hls_playlist_type vod -hls_segment_type fmp4 \
   -hls_fmp4_init_filename init.mp4 -hls_segment_filename media/fmp4-hevc/seg_%03d.m4s media/fmp4-hevc/prog.m3u8
ff $(source 12) -c:v libx264 -preset veryfast -profile:v main -pix_fmt yuv420p -bf 0 -g 60 -keyint_min 60 -sc_threshold 0 -b:v 90k -threads 1 \
   "${audio[@]}" -f hls -hls_time 4 -hls_playlist_type vod -hls_segment_type fmp4 \
   -hls_fmp4_init_filename init.mp4 -hls_segment_filename media/fmp4-nob/seg_%03d.m4s media/fmp4-nob/prog.m3u8
printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,CODECS="hvc1.1.6.L63.90,mp4a.40.2"\nprog.m3u8\n' > media/fmp4-hevc/master.m3u8
printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,CODECS="avc1.4d400d,mp4a.40.2"\nprog.m3u8\n' > media/fmp4-nob/master.m3u8

# 6. A demuxed ladder whose first variant is audio-only (ffmpeg -var_stream_map): the audio starts
#    21 ms before the video, and the subtitles must follow the video.
mkdir -p media/audio-first
(cd media/audio-first && ff $(source 12) -map 1:a -map 0:v "${video[@]}" "${audio[@]}" -f hls -hls_time 4 -hls_playlist_type vod \
   -var_stream_map "a:0 v:0" -master_pl_name master.m3u8 -hls_segment_filename "s%v_%03d.ts" "p%v.m3u8")

# 7. The example asset in Examples/basic: 10 s of MPEG-TS in 2 s segments, two bitrates.
example=../Examples/basic
rm -rf "$example/video" && mkdir -p "$example/video/low" "$example/video/high"
ff $(source 10 25) "${video25[@]}" "${audio[@]}" -f hls -hls_time 2 -hls_playlist_type vod \
   -hls_segment_filename "$example/video/low/seg_%03d.ts" "$example/video/low/prog.m3u8"
ff $(source 10 25) -c:v libx264 -preset veryfast -profile:v main -pix_fmt yuv420p -bf 3 -g 50 -keyint_min 50 -sc_threshold 0 \
   -b:v 160k -maxrate 200k -bufsize 400k -threads 1 -s 480x270 "${audio[@]}" -f hls -hls_time 2 -hls_playlist_type vod \
   -hls_segment_filename "$example/video/high/seg_%03d.ts" "$example/video/high/prog.m3u8"
du -sh media "$example"
