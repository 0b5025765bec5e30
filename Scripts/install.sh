#!/usr/bin/env bash
# Builds subweave as a self-contained binary (the Swift standard library and Foundation linked
# statically) and installs it as PREFIX/bin/subweave, with its man page in PREFIX/share/man/man1
# and bash and zsh completions in PREFIX/share/bash-completion and PREFIX/share/zsh.
#
#   Scripts/install.sh                 # PREFIX=/usr/local
#   PREFIX=$HOME/.local Scripts/install.sh
#   Scripts/install.sh --prefix /opt/subweave     (or --prefix=/opt/subweave)
#
# The binary needs only the system C and C++ runtime libraries (glibc, libstdc++, libgcc), as new
# as the symbol versions it was linked against on the build machine (the install prints them):
# it runs on a machine without the Swift toolchain (StaticBinaryTests runs it with a PATH and
# library path that reach no toolchain).
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX="${PREFIX:-/usr/local}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --prefix=*) PREFIX="${1#--prefix=}"; shift;;
    --prefix) [[ -n "${2:-}" ]] || { echo "install.sh: --prefix needs a folder" >&2; exit 64; }; PREFIX="$2"; shift 2;;
    -h|--help) sed -n '2,13p' "$0"; exit 0;;
    *) echo "install.sh: unknown argument $1 (--prefix DIR, or PREFIX=DIR in the environment)" >&2; exit 64;;
  esac
done
[[ -n "$PREFIX" ]] || { echo "install.sh: the prefix is empty" >&2; exit 64; }
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

swift build -c release --static-swift-stdlib --product subweave --build-path .build/static
binary="$(swift build -c release --static-swift-stdlib --product subweave --build-path .build/static --show-bin-path)/subweave"

install -d "$PREFIX/bin" "$PREFIX/share/man/man1" "$PREFIX/share/bash-completion/completions" "$PREFIX/share/zsh/site-functions"
install -m 0755 "$binary" "$PREFIX/bin/subweave"
"$PREFIX/bin/subweave" --manual > "$PREFIX/share/man/man1/subweave.1"
chmod 0644 "$PREFIX/share/man/man1/subweave.1"
"$PREFIX/bin/subweave" completions bash > "$PREFIX/share/bash-completion/completions/subweave"
"$PREFIX/bin/subweave" completions zsh > "$PREFIX/share/zsh/site-functions/_subweave"
chmod 0644 "$PREFIX/share/bash-completion/completions/subweave" "$PREFIX/share/zsh/site-functions/_subweave"
echo "installed $("$PREFIX/bin/subweave" --version) as $PREFIX/bin/subweave (man page: $PREFIX/share/man/man1/subweave.1)"
# What the binary needs from the system: the newest symbol versions it asks of glibc and libstdc++.
if command -v objdump >/dev/null; then
  needs=$(objdump -T "$PREFIX/bin/subweave" | grep -oE '(GLIBC|GLIBCXX)_[0-9.]+' | sort -t_ -k1,1 -k2,2V | awk -F_ '{v[$1]=$2} END {for (k in v) printf "%s %s; ", k, v[k]}')
  echo "it needs at least: ${needs% ; }"
fi
