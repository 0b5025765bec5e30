#!/usr/bin/env bash
# Runs `subweave package` on a copy of Examples/basic (tracked files stay as they are) and shows
# the result. SUBWEAVE=/path/to/subweave uses a binary built before (the self-contained one
# Scripts/install.sh makes needs no Swift, only a glibc and libstdc++ as new as the build
# machine's) instead of compiling here.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/subweave-example.XXXXXX")
cp -R Examples/basic/. "$work"
if [[ -n "${SUBWEAVE:-}" ]]; then
  bin=$SUBWEAVE
else
  echo "compiling subweave (release): a few minutes the first time, silent while it optimises and links" >&2
  swift build --product subweave -c release >&2
  bin=$(swift build --product subweave -c release --show-bin-path)/subweave
fi
"$bin" package "$work/master.m3u8" \
  --subtitle "url=$work/subs/en.srt,language=en" \
  --subtitle "url=$work/subs/fr.vtt,language=fr" \
  --preferred-language en
echo "--- $work/master.m3u8"
cat "$work/master.m3u8"
# The master names each rendition's current generation: subtitles/<id>-<language>/<generation>/.
segment=$(ls "$work"/subtitles/en-en/*/00001.vtt)
echo "--- $segment"
cat "$segment"
echo "(output left in $work)"
