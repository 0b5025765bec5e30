#!/usr/bin/env bash
# Builds and runs one libFuzzer target (Tests/FuzzTargets/FuzzEntry.swift) with AddressSanitizer.
#
#   Scripts/fuzz.sh TARGET [libFuzzer options...]     e.g. Scripts/fuzz.sh webvtt -runs=10000000
#   Scripts/fuzz.sh list
#
# Targets: m3u8 webvtt subrip scc dtvcc ass ttml mpegts isobmff rate sync text language descriptor aes vobsub pgs dvbsub cuenote
# catalogue. The corpus lives in .build/fuzz/corpus/TARGET,
# seeded from Fixtures (and Fixtures/fuzz/TARGET, the committed regression inputs); crash, timeout
# and OOM inputs land in .build/fuzz/artifacts/TARGET/. Copy a crash input to Fixtures/fuzz/TARGET/
# under a name that says what it broke: `swift test` replays it from then on.
#
# SwiftPM links executables with `--defsym main=...`, which clashes with libFuzzer's own main, so
# the modules are built by SwiftPM with the fuzzer instrumentation and linked here by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

targets="m3u8 webvtt subrip scc mcc stl teletext dtvcc ass ttml mpegts isobmff rate sync text language descriptor catalogue aes vobsub pgs dvbsub cuenote"
target=${1:-}
if [ -z "$target" ] || [ "$target" = list ]; then echo "$targets"; exit 0; fi
case " $targets " in *" $target "*) ;; *) echo "unknown target $target (one of: $targets)" >&2; exit 64;; esac
shift

build=.build/fuzz
swift build --build-path "$build" -Xswiftc -sanitize=fuzzer,address --target FuzzTargets >&2
debug="$build/debug"
main="$build/main-$target.swift"
cat > "$main" <<EOF
import FuzzTargets
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let violations = FuzzEntry.targets["$target"]!(bytes)
    if !violations.isEmpty { fatalError("invariant broken: \(violations)") }
    return 0
}
EOF
# A Swift module's objects are the ones its output file map names: an object left behind by a
# source file since renamed or removed would define its symbols twice. C modules have no map.
objects=()
for module in Timebase HLS TimedText Containers Pictures Captions Sync CCurl CPlatform Platform Subweave FuzzTargets; do
  map="$debug/$module.build/output-file-map.json"
  if [ -f "$map" ]; then
    while IFS= read -r object; do objects+=("$object"); done < <(python3 -c 'import json, sys
for entry in json.load(open(sys.argv[1])).values():
    if entry.get("object"): print(entry["object"])' "$map")
  else
    objects+=("$debug/$module.build"/*.o)
  fi
done
binary="$build/fuzz-$target"
# CCurl and CPlatform are C targets: their module maps are SwiftPM's; CCurl loads libcurl with
# dlopen (-ldl).
swiftc -parse-as-library -sanitize=fuzzer,address -I "$debug/Modules" -Xcc -fmodule-map-file="$debug/CCurl.build/module.modulemap" \
  -Xcc -fmodule-map-file="$debug/CPlatform.build/module.modulemap" -I Sources/CCurl/include -I Sources/CPlatform/include \
  "$main" "${objects[@]}" -ldl -o "$binary" 2>&1 \
  | grep -v "Cannot export local symbol" >&2 || true

corpus="$build/corpus/$target"
artifacts="$build/artifacts/$target"
mkdir -p "$corpus" "$artifacts"
seed() { for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$corpus/" 2>/dev/null || true; done; }
case $target in
  m3u8) seed $(find Fixtures -name '*.m3u8');;
  webvtt) seed $(find Fixtures -name '*.vtt');;
  subrip) seed $(find Fixtures -name '*.srt');;
  scc) seed $(find Fixtures -name '*.scc');;
  mcc) seed $(find Fixtures -name '*.mcc');;
  stl) seed $(find Fixtures -name '*.stl');;
  teletext) seed $(find Fixtures/fuzz/teletext -type f);;
  ass) seed $(find Fixtures -name '*.ass' -o -name '*.ssa');;
  ttml) seed $(find Fixtures -name '*.ttml' -o -name '*.dfxp');;
  mpegts) seed Fixtures/captions/programme.ts Fixtures/media/ts-bframes/seg_000.ts $(find Fixtures/fuzz/dvbsub -type f);;
  rate) for r in 25/23.976 24/23.976 23.976/25 1.0427 29.97/25 0.96; do printf '%s' "$r" > "$corpus/seed-${r//\//-}"; done;;
  text) seed $(find Fixtures/subtitles -type f -size -8k | head -200);;
  descriptor) seed $(find Fixtures Examples -name '*.json' | head -50);;
  catalogue) seed $(find Examples -name '*.jsonl');;
  sync)
    # Two seconds of a tone that comes and goes as 8 kHz PCM, then cue times (tenths of a second).
    python3 - "$corpus/seed-sync" <<'PY'
import math, struct, sys
pcm = b"".join(struct.pack("<h", int(8000 * math.sin(i / 5) * (1 if (i // 2000) % 2 else 0))) for i in range(16000))
cues = b"".join(struct.pack(">HH", a, a + 3) for a in range(0, 20, 5))
open(sys.argv[1], "wb").write(pcm + cues * (len(pcm) // 2 // len(cues)))
PY
    ;;
  dtvcc)
    # A frame of two services' packets as cc_data, the form the target reads (Benchmarks/dtvcc_inject.py).
    python3 - "$corpus/seed-dtvcc" <<'PY'
import sys
sys.path.insert(0, "Benchmarks")
from dtvcc_inject import commands, packet, triplets
out, seq = bytearray(), 0
for frame in range(0, 60):
    for service, data in commands(frame):
        t, _ = triplets(packet(seq, service, data)); seq += 1
        for k in range(0, len(t), 3):
            out += bytes([(1 if t[k] == 0xFF else 0) | (2 << 5), t[k + 1], t[k + 2]])
open(sys.argv[1], "wb").write(bytes(out))
PY
    ;;
  isobmff)
    # init length (4 bytes, big-endian), init, then a media segment.
    python3 - "$corpus/seed-fmp4" Fixtures/media/fmp4/init.mp4 Fixtures/media/fmp4/seg_000.m4s <<'PY'
import struct, sys
out, init, seg = sys.argv[1:]
i = open(init, "rb").read(); s = open(seg, "rb").read()
open(out, "wb").write(struct.pack(">I", len(i)) + i + s)
PY
    ;;
esac
[ -d "Fixtures/fuzz/$target" ] && seed Fixtures/fuzz/"$target"/*
# FoundationXML leaks a CFString for every XML error it reports (in _CFErrorCreateFromXMLInterface,
# swift-corelibs-foundation, not Subweave): leak detection is off for the TTML target only.
extra=()
if [ "$target" = ttml ]; then extra+=(-detect_leaks=0); export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"; fi
# Encoding detection reads a 64 KiB sample in every candidate encoding: under the sanitizer that
# takes 11 s for random bytes (30 ms in a release build), which is not a hang, and a 12 KiB input
# took 13 s on a loaded machine (70 ms in release; 64 copies of it 0.39 s: linear). The text target
# works on 8 KiB inputs with a 30 s bound.
# The bound on one execution is wall time: a fuzzer at nice 19 beside a build or a test run waits
# for the processor (a 915 KB MPEG-TS input took 0.83 s alone and 15 s so). FUZZ_TIMEOUT raises it.
max_len=1048576
timeout=${FUZZ_TIMEOUT:-30}
[ "$target" = text ] && max_len=8192 && timeout=${FUZZ_TIMEOUT:-60}
# The sync analysis FFTs its whole input (PCM): 128 KiB is 4 s of 16 kHz audio, every path it has;
# a 1 MiB input took 18-33 s under the sanitizer on a loaded machine, which read as a hang.
[ "$target" = sync ] && max_len=131072 && timeout=${FUZZ_TIMEOUT:-60}
exec "$binary" "$corpus" "${extra[@]}" -artifact_prefix="$artifacts/" -rss_limit_mb=2048 -timeout=$timeout -max_len=$max_len -print_final_stats=1 "$@"
