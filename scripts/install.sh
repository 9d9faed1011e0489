#!/usr/bin/env bash
# Builds mock-server for release and copies it to PREFIX/bin (default /usr/local), so a Mac or
# a CI machine runs `mock-server` from anywhere without `swift run` (the seed is compiled in).
# Usage: scripts/install.sh [PREFIX]      e.g. scripts/install.sh ~/.local
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
prefix="${1:-/usr/local}"
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac

# On Linux the Swift runtime and Foundation are linked in (--static-swift-stdlib), so the binary
# runs on a machine without the toolchain (libc and the C++ runtime stay shared); macOS has the
# Swift runtime in the OS already.
flags=(-c release)
[[ "$(uname -s)" == "Linux" ]] && flags+=(--static-swift-stdlib)
swift build "${flags[@]}" --product mock-server
built="$(swift build "${flags[@]}" --show-bin-path)/mock-server"
if ! mkdir -p "$prefix/bin" 2>/dev/null || [[ ! -w "$prefix/bin" ]]; then
    echo "install: cannot write to $prefix/bin; run it with sudo, or pick a prefix of your own: scripts/install.sh ~/.local" >&2
    exit 1
fi
# Copied to a temporary name and renamed: a running mock-server keeps its old file intact.
cp "$built" "$prefix/bin/.mock-server.new.$$"
chmod 755 "$prefix/bin/.mock-server.new.$$"
mv -f "$prefix/bin/.mock-server.new.$$" "$prefix/bin/mock-server"
echo "install: $("$prefix/bin/mock-server" --version) is $prefix/bin/mock-server"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "install: $prefix/bin is not on your PATH; add it (zsh: echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.zshrc)" ;;
esac
