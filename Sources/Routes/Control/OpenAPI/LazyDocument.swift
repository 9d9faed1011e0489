import HTTPServer

/// Bytes built on first use and kept: the OpenAPI document took three quarters of the start-up
/// time (serialised through Foundation then) to serve a page few runs ever ask for.
package final class LazyDocument: Sendable {
    private let build: @Sendable () -> [UInt8]
    private let built = Locked<[UInt8]?>(nil)

    package init(_ build: @escaping @Sendable () -> [UInt8]) { self.build = build }

    /// The bytes, built by the first caller (others wait for it rather than build twice).
    package var bytes: [UInt8] {
        built.withLock { cached in
            if let cached { return cached }
            let bytes = build()
            cached = bytes
            return bytes
        }
    }
}
