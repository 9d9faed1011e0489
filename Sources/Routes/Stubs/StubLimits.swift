/// Bounds on what a stub answers (`--max-stub-body-bytes`): a template stops rendering at the
/// cap, so no mapping and no request can make an answer that exhausts the memory.
package struct StubLimits: Sendable, Equatable {
    /// 16 MiB: far above any answer an app under test reads, far below the memory of a laptop.
    package static let defaultMaxBodyBytes = 16 << 20
    /// What `--max-stub-body-bytes` accepts: 1 KiB to 1 GiB.
    package static let maxBodyBytesRange = 1024...(1 << 30)

    /// The most bytes a rendered body (or a rendered header value) may hold.
    package var maxBodyBytes: Int
    /// A proxying stub sends the client's `Host` upstream instead of the upstream's own
    /// (`--preserve-host-header`, as WireMock's flag).
    package var preserveHostHeader = false
    /// Every proxied exchange becomes a persistent mapping as it arrives (`--record-mappings`, as WireMock's flag).
    package var recordMappings = false
    /// When a stub's answer goes with `Transfer-Encoding: chunked` (`--use-chunked-encoding`).
    package var chunkedEncoding = StubChunkedEncoding.always

    /// Limits with this cap (the default unless given).
    package init(maxBodyBytes: Int = StubLimits.defaultMaxBodyBytes) {
        self.maxBodyBytes = maxBodyBytes
    }
}
