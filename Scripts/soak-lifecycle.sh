#!/bin/sh
# A long soak of the lifecycle property (Tests/CLITests/LifecyclePropertyTests.swift): seeded
# random sequences of package, refresh after re-encodes, remove, batch, follow and kill -9 over
# ffmpeg-made media with CEA-608 captions and sidecars in SubRip, WebVTT, TTML, ASS, SCC and EBU
# STL, each step checked against what the operator said. CI runs seeds 1-3 of 10 steps.
#
#   Scripts/soak-lifecycle.sh [FIRST-LAST] [STEPS]      # default: seeds 1-300, 25 steps each
#
# A failure prints the seed and the commands that led to it; rerun one seed with
# SUBWEAVE_LIFECYCLE_SEEDS=N swift test --filter LifecyclePropertyTests.
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests
SUBWEAVE_LIFECYCLE_SEEDS="${1:-1-300}" SUBWEAVE_LIFECYCLE_STEPS="${2:-25}" \
    swift test --skip-build --filter LifecyclePropertyTests
