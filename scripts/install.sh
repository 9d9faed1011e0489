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
if [[ "$(uname -s)" == "Linux" ]]; then
    flags+=(--static-swift-stdlib)
    # The static link prints glibc's link-time note on mktemp, from the temporary-file code of
    # Swift's own libFoundationEssentials.a: said up front, so nobody takes it for a failure.
    echo "install: the link may warn \"the use of \`mktemp' is dangerous\": that is glibc's note on Swift's own static Foundation library, not on mock-server's code, and harmless; the build goes on"
fi
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
