import HTTPServer

/// The JSON of a list that mostly grows at the end and drops from the front (the outbox): a
/// write re-encodes only the elements added since the last one and copies the rest as one
/// block, so a large outbox under a stream of sign-ups costs a copy, not a re-encoding.
package final class EncodedListCache<Element: Equatable & Sendable>: Sendable {
    private struct Cached {
        var elements: [Element] = []
        /// The elements' JSON back to back, each followed by a comma.
        var bytes: [UInt8] = []
        /// Where each element's JSON starts in `bytes`.
        var starts: [Int] = []
    }

    private let cached = Locked(Cached())

    package init() {}

    /// `[e1,e2,…]` for `list`, reusing the cached JSON of the elements it still holds.
    package func json(for list: [Element], encode: (Element) -> [UInt8]) -> [UInt8] {
        cached.withLock { c in
            // The list now starts somewhere in the cached one; every element after is checked,
            // and equal elements encode to equal JSON, so reuse is always correct.
            var reused = 0, start = 0
            if let first = list.first, let found = c.elements.firstIndex(of: first) {
                start = found
                let n = min(c.elements.count - start, list.count)
                while reused < n, c.elements[start + reused] == list[reused] { reused += 1 }
            }
            if reused == 0 {
                c = Cached()
            } else if start > 0 || reused < c.elements.count {
                let from = c.starts[start], to = start + reused < c.starts.count ? c.starts[start + reused] : c.bytes.count
                c.bytes = Array(c.bytes[from..<to])
                c.starts = c.starts[start..<(start + reused)].map { $0 - from }
                c.elements = Array(c.elements[start..<(start + reused)])
            }
            for element in list[reused...] {
                c.starts.append(c.bytes.count)
                c.bytes.append(contentsOf: encode(element))
                c.bytes.append(UInt8(ascii: ","))
                c.elements.append(element)
            }
            var out: [UInt8] = []
            out.reserveCapacity(c.bytes.count + 1)
            out.append(UInt8(ascii: "["))
            out.append(contentsOf: c.bytes.dropLast())   // the last comma
            out.append(UInt8(ascii: "]"))
            return out
        }
    }
}
