#!/usr/bin/env bash
# Runs every fuzz target (Scripts/fuzz.sh) in turn, each until it has made RUNS executions or run
# SECONDS seconds, whichever comes first, and prints a line per target: executions, seconds, and
# whether it found anything (crash inputs land in .build/fuzz/artifacts/TARGET/).
#
#   Scripts/fuzz-all.sh [SECONDS [RUNS]]      defaults: 3600 s, 10,000,000 runs
#   FUZZ_TARGETS="ttml sync" Scripts/fuzz-all.sh 600
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3600}
runs=${2:-10000000}
targets=${FUZZ_TARGETS:-$(Scripts/fuzz.sh list)}
mkdir -p .build/fuzz/logs
status=0
for target in $targets; do
  log=.build/fuzz/logs/$target.log
  Scripts/fuzz.sh "$target" -runs="$runs" -max_total_time="$seconds" > "$log" 2>&1
  code=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1)
  found=$(ls .build/fuzz/artifacts/"$target" 2>/dev/null | wc -l)
  printf '%-11s exit %-3s executions %-10s %s; artifacts %s\n' "$target" "$code" "${execs:-?}" "${took:-}" "$found"
  [ "$code" -ne 0 ] && status=1
done
exit $status
