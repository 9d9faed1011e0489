#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which route group owns a path: the rule the router words its own 404 and 405 by (the first
/// group, in registration order, whose `RouteGroup.owns` holds), built once at start into a table
/// keyed by the byte after the leading slash, so the router decides for a path no route matches
/// without comparing or retaining a String. The control plane reads it for WebSocket endpoints,
/// fault rules and stubs.
package struct PathOwners: Sendable {
    /// One prefix of one group: its bytes in `bytes`, and whether letters match in any case.
    private struct Candidate: Sendable {
        let start: Int
        let count: Int
        let group: Int
        let foldCase: Bool
    }

    /// The groups' system names, by group index.
    package let names: [String]
    /// Every prefix's bytes, back to back (lower-cased for case-insensitive groups).
    private let bytes: [UInt8]
    /// The candidates, grouped by the folded byte after the leading slash, in group order.
    private let candidates: [Candidate]
    /// For each byte value b, `candidates[bucket[b]..<bucket[b + 1]]`.
    private let bucket: [Int]

    package init(groups: [RouteGroup]) {
        names = groups.map(\.system)
        var bytes: [UInt8] = [], all: [(key: Int?, candidate: Candidate)] = []
        for (index, group) in groups.enumerated() {
            for prefix in group.prefixes {
                let text = Array((group.caseInsensitive ? prefix.lowercased() : prefix).utf8)
                let candidate = Candidate(start: bytes.count, count: text.count, group: index, foldCase: group.caseInsensitive)
                bytes += text
                // A prefix of one byte ("/") is a candidate for every path.
                all.append((text.count >= 2 ? Int(PathOwners.fold(text[1])) : nil, candidate))
            }
        }
        var candidates: [Candidate] = [], bucket: [Int] = []
        for key in 0..<256 {
            bucket.append(candidates.count)
            candidates += all.filter { $0.key == nil || $0.key == key }.map(\.candidate)
        }
        bucket.append(candidates.count)
        self.bytes = bytes
        self.candidates = candidates
        self.bucket = bucket
    }

    /// The index of the owning group, or nil for a path no group owns.
    package func owner(of path: String) -> Int? {
        // A closure, not the method itself: a partially applied method would capture a copy of self.
        path.utf8.withContiguousStorageIfAvailable { owner($0) } ?? Array(path.utf8).withUnsafeBufferPointer { owner($0) }
    }

    /// The owning group's system name, or nil.
    package func name(ofPath path: String) -> String? { owner(of: path).map { names[$0] } }

    func owner(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        guard path.count >= 2, let start = path.baseAddress, start[0] == UInt8(ascii: "/") else { return nil }
        return bucket.withUnsafeBufferPointer { bucket in
            let key = Int(PathOwners.fold(start[1]))
            var i = bucket[key]
            let end = bucket[key + 1]
            if i == end { return nil }
            return candidates.withUnsafeBufferPointer { candidates in
                bytes.withUnsafeBufferPointer { bytes in
                    guard let prefixes = bytes.baseAddress else { return nil }
                    while i < end {
                        let c = candidates[i]
                        if PathOwners.matches(c, prefixes + c.start, start, path.count) { return c.group }
                        i += 1
                    }
                    return nil
                }
            }
        }
    }

    /// `RouteGroup.owns` for one prefix: the path starts with it, by whole segments.
    @inline(__always)
    private static func matches(_ c: Candidate, _ prefix: UnsafePointer<UInt8>, _ path: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let n = c.count
        guard count >= n, count == n || path[n] == UInt8(ascii: "/") else { return false }
        if !c.foldCase { return memcmp(path, prefix, n) == 0 }
        for i in 0..<n where fold(path[i]) != prefix[i] { return false }
        return true
    }

    /// An ASCII upper-case letter as lower case; every other byte as is.
    private static func fold(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
