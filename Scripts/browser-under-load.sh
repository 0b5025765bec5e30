#!/usr/bin/env bash
# Runs the hls.js browser test N times (default 20) while two CPU-bound processes load the
# machine, and prints how many passed: the proof that the end-to-end test does not flake.
#   Scripts/browser-under-load.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs=${1:-20}
swift build --build-tests >&2
yes > /dev/null & hog1=$!
yes > /dev/null & hog2=$!
trap 'kill $hog1 $hog2 2>/dev/null || true' EXIT
passed=0
for i in $(seq 1 "$runs"); do
  if swift test --skip-build --filter BrowserPlaybackTests > ".build/browser-run-$i.log" 2>&1; then
    passed=$((passed + 1)); echo "run $i: passed"
  else
    echo "run $i: FAILED (.build/browser-run-$i.log)"
  fi
done
echo "$passed/$runs passed with two CPU-bound processes alongside"
[ "$passed" -eq "$runs" ]
