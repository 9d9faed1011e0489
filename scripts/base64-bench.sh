#!/usr/bin/env bash
# The WebSocket handshake's Base64, hand-written (Sources/HTTPServer/WebSocket/Base64.swift)
# against Foundation's (Data.base64EncodedString / Data(base64Encoded:)): the two calls a
# handshake makes (check that Sec-WebSocket-Key decodes to 16 bytes; encode SHA-1(key + GUID)),
# built with -O from the project's own SHA-1 and Base64. Prints, per variant, instructions per
# handshake (callgrind, repeatable) and ns per handshake (wall time, noisy on a shared machine),
# and whether Foundation's decoder refuses the keys the hand-written one refuses.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/main.swift" <<'SWIFT'
import Foundation
let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
let keys = ["dGhlIHNhbXBsZSBub25jZQ==", "x3JJHMbDL1EzLkh9GBhXDw==", "AQIDBAUGBwgJCgsMDQ4PEA==", "+/+/+/+/+/+/+/+/+/+/+w=="]
@inline(never) func hand(_ key: String) -> String? {
    guard Base64.decode(key)?.count == 16 else { return nil }
    return Base64.encode(SHA1.hash((key + guid).utf8))
}
@inline(never) func foundation(_ key: String) -> String? {
    guard Data(base64Encoded: key)?.count == 16 else { return nil }
    return Data(SHA1.hash((key + guid).utf8)).base64EncodedString()
}
// Base64 alone: the same two calls on a digest computed once.
let digest = SHA1.hash((keys[0] + guid).utf8)
@inline(never) func handOnly(_ key: String) -> String? {
    guard Base64.decode(key)?.count == 16 else { return nil }
    return Base64.encode(digest)
}
@inline(never) func foundationOnly(_ key: String) -> String? {
    guard Data(base64Encoded: key)?.count == 16 else { return nil }
    return Data(digest).base64EncodedString()
}
let args = CommandLine.arguments
let variant = args.count > 1 ? args[1] : "both"
let n = args.count > 2 ? Int(args[2]) ?? 200_000 : 200_000
if variant == "check" {
    for key in keys { precondition(hand(key) == foundation(key), key) }
    // What the hand-written decoder refuses (Base64Tests), and what Foundation makes of it.
    for bad in ["Zg=", "Zm9", "Z===", "Zg==Zg==", "Zm=v", "Zm9v!A==", "Zm9 v", "=Zm9", "Zm9v\n", "é123", "Zh==", "Zm9=", ""] {
        let f = Data(base64Encoded: bad).map { Array($0) }
        print("refused by hand: \(Base64.decode(bad) == nil), by Foundation: \(f == nil)  \(bad.debugDescription)")
    }
    exit(0)
}
var total = 0
let run = ["hand": hand, "foundation": foundation, "hand-base64-only": handOnly, "foundation-base64-only": foundationOnly][variant] ?? hand
let start = DispatchTime.now().uptimeNanoseconds
for i in 0..<n { total &+= run(keys[i & 3])?.utf8.count ?? 0 }
let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(max(n, 1))
print("\(variant): \(String(format: "%.0f", ns)) ns per handshake (\(total) bytes)")
SWIFT
swiftc -O -module-name Base64Bench -o "$work/bench" "$work/main.swift" \
    Sources/HTTPServer/WebSocket/Base64.swift Sources/HTTPServer/WebSocket/SHA1.swift 2>&1 | grep -v "^$" || true
"$work/bench" check
for variant in hand foundation hand-base64-only foundation-base64-only; do
    "$work/bench" "$variant" 1000000
    # Instructions: a run of N handshakes minus a run of none (start-up and Foundation's loading).
    ir() {
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" "$work/bench" "$variant" "$1" > /dev/null 2> "$work/vg.$1"
        sed -nE 's/.*Collected : ([0-9]+).*/\1/p' "$work/vg.$1"
    }
    if command -v valgrind > /dev/null; then
        base="$(ir 0)"; many="$(ir 20000)"
        echo "$variant: $(( (many - base) / 20000 )) instructions per handshake (callgrind)"
    fi
done
