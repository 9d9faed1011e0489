#!/usr/bin/env bash
# Micro-benchmark of the per-request log line: formatting plus the hand-off to the writer queue,
# built with -O from the logger's own sources (no server, no syscalls timed). Prints ns per line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/main.swift" <<'SWIFT'
import Foundation
@main struct Bench {
    static func main() {
        let n = 1_000_000
        let output = LogOutput(capacity: 1 << 20) { _ in }   // a writer that discards
        let entry = RequestLogEntry(method: "POST", path: "/auth/login", status: 200, durationNanos: 412_000, system: "rows")
        let hinted = RequestLogEntry(method: "GET", path: "/rows/1", status: 403, durationNanos: 98_000, system: "rows",
                                     hint: "send the raw token in the authorization header, without Bearer")
        for (name, format, colour) in [("text", LogFormat.text, false), ("text+colour", .text, true), ("json", .json, false)] {
            let logger = Logger(level: .info, format: format, colour: colour, output: output)
            for e in [entry, hinted] {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<n { logger.request(e) }
                let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
                print("\(name)\(e.hint == nil ? "" : " hinted"): \(String(format: "%.0f", ns)) ns per request line")
                output.flush(timeout: 60)
            }
        }
        for format in [LogFormat.text, .json] {
            var bytes = 0
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<n { bytes &+= LogLine.request(entry, format: format, colour: false).utf8.count }
            print("formatting alone (\(format)): \(String(format: "%.0f", Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n))) ns per line (\(bytes / n) bytes)")
        }
        let quiet = Logger(level: .warning, output: output)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<n { quiet.request(entry) }
        print("--log-level warning: \(String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n))) ns per request")
        print("dropped: \(output.droppedCount)")
    }
}
SWIFT
swiftc -O -parse-as-library -module-name LogBench -o "$work/bench" "$work/main.swift" \
    Sources/HTTPServer/Logger.swift Sources/HTTPServer/LogLine.swift Sources/HTTPServer/LogOutput.swift
"$work/bench"
