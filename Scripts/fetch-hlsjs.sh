#!/usr/bin/env bash
# Puts hls.js (1.6.15, as vendored in PyPI's gradio 6.31.0 wheel) at .build/e2e/hls.mjs for the
# browser end-to-end test. npm is unreachable from CI; PyPI is not.
#   Scripts/fetch-hlsjs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
target=.build/e2e/hls.mjs
[ -s "$target" ] && { echo "hls.js already at $target"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --no-deps --dest "$work" gradio==6.31.0
python3 - "$work" "$target" <<'PY'
import glob, os, sys, zipfile
work, target = sys.argv[1], sys.argv[2]
wheel = glob.glob(os.path.join(work, "gradio-*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith("gradio/templates/frontend/assets/hls-") and n.endswith(".js")]
    if not names:
        sys.exit("no hls-*.js in " + wheel)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as out:
        out.write(z.read(names[0]))
print("hls.js extracted to", target)
PY
