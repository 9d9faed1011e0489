import HTTPServer

/// The JSON of elements that change one at a time in no particular order (musbooking's
/// sessions), kept by key between writes: a write re-encodes only the elements that are new or
/// different since the last one, and forgets the ones that are gone.
package final class KeyedJSONCache<Key: Hashable & Sendable, Element: Equatable & Sendable>: Sendable {
    private let cached = Locked<[Key: (element: Element, json: [UInt8])]>([:])

    package init() {}

    /// `[e1,e2,…]` for `elements`, in their order.
    package func json<S: Sequence>(for elements: S, encode: (Key, Element) -> [UInt8]) -> [UInt8] where S.Element == (key: Key, value: Element) {
        cached.withLock { cache in
            var out: [UInt8] = [UInt8(ascii: "[")]
            var live = 0
            for (key, element) in elements {
                if live > 0 { out.append(UInt8(ascii: ",")) }
                live += 1
                if let hit = cache[key], hit.element == element {
                    out.append(contentsOf: hit.json)
                } else {
                    let json = encode(key, element)
                    cache[key] = (element, json)
                    out.append(contentsOf: json)
                }
            }
            // Forget what is gone, once it is most of the cache (a rebuild costs one pass).
            if cache.count > 2 * live + 64 {
                var keep = Set<Key>()
                for (key, _) in elements { keep.insert(key) }
                cache = cache.filter { keep.contains($0.key) }
            }
            out.append(UInt8(ascii: "]"))
            return out
        }
    }
}
