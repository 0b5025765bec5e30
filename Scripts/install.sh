#!/usr/bin/env bash
# Builds subweave as a self-contained binary (the Swift standard library and Foundation linked
# statically) and installs it as PREFIX/bin/subweave, with its man page in PREFIX/share/man/man1
# and bash and zsh completions in PREFIX/share/bash-completion and PREFIX/share/zsh.
#
#   Scripts/install.sh                 # PREFIX=/usr/local
#   PREFIX=$HOME/.local Scripts/install.sh
#   Scripts/install.sh --prefix /opt/subweave
#
# The binary needs only the system C and C++ runtime libraries (glibc, libstdc++, libgcc): it runs on a
# machine without the Swift toolchain (checked by Scripts/check-static-binary.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX="${PREFIX:-/usr/local}"
if [[ "${1:-}" == "--prefix" && -n "${2:-}" ]]; then PREFIX="$2"; fi
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
