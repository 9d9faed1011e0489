#!/usr/bin/env bash
# Runs a command on Linux with a Mac's defaults wherever Linux can take them, so behaviour that
# depends on them shows here first (docs/darwin-differences.md says which row each one covers):
#   - its own network namespace (`unshare -n`; only loopback inside, so no traffic leaves it),
#   - loopback MTU 16384 (macOS lo0; Linux's is 65536),
#   - 131072-byte TCP buffers, Mac-sized: older macOS reports net.inet.tcp.sendspace/recvspace 131072,
#     current xnu compiles in 1448*256 and 1448*384 (tcp_usrreq.c); both are below Linux's auto-tuned sizes,
#   - a soft `ulimit -n 256` (a Mac terminal's soft RLIMIT_NOFILE),
#   - 512 KiB default thread stacks (Darwin's secondary threads; glibc takes the size from `ulimit -s`),
#   - the poll(2) backend (MOCK_POLLER=poll), the portable one of the two Linux pollers.
# It cannot show *value* differences (xnu's getsockopt(SO_KEEPALIVE) answers 8, not 1): those are
# read from xnu and asserted as the portable fact in the tests.
# Needs root (for unshare -n) and iproute2's `ip`; CI runs as root.
# Usage: scripts/darwin-like.sh COMMAND [ARGS...]   e.g. scripts/darwin-like.sh swift test --skip-build
set -euo pipefail
if (( $# == 0 )); then sed -n '2,14p' "$0"; exit 2; fi
if [[ "$(id -u)" -ne 0 ]]; then
    echo "darwin-like: needs root for its own network namespace (unshare -n); run it as root or with sudo" >&2
    exit 1
fi
exec unshare -n bash -c '
  set -euo pipefail
  ip link set lo up mtu 16384
  # net.ipv4.tcp_* are per network namespace on current kernels; an older one keeps the host values.
  sysctl -q -w net.ipv4.tcp_wmem="4096 131072 4194304" net.ipv4.tcp_rmem="4096 131072 4194304" 2>/dev/null \
      || echo "darwin-like: tcp buffer sysctls not per-namespace here; host TCP buffers kept" >&2
  ulimit -Sn 256
  ulimit -Ss 512
  export MOCK_POLLER=poll
  echo "darwin-like: lo mtu $(ip -o link show lo | sed -E "s/.* mtu ([0-9]+) .*/\1/"), ulimit -n $(ulimit -Sn), ulimit -s $(ulimit -Ss) KiB, MOCK_POLLER=$MOCK_POLLER" >&2
  exec "$@"' darwin-like "$@"
