import HTTPServer

/// RFC 9112 §6: an answer is framed once, by the server. A mapping's `Transfer-Encoding` and
/// `Content-Length` (often recorded from a real server, next to a body that is no longer
/// chunked) are left out, so the body arrives readable; its `Connection: close` closes the
/// connection after the answer instead of being sent beside the server's own `Connection`.
/// (A mapping's `Date` and `Server` replace the server's: the encoder writes those.)
enum StubFraming {
    enum Role {
        /// An ordinary field, sent as the mapping says.
        case field
        /// `Transfer-Encoding`, `Content-Length`: the server's framing stands.
        case framing
        /// `Connection`: `close` is honoured, any other value left out.
        case connection
    }

    static func role(of name: String) -> Role {
        if name.equalsIgnoringASCIICase("Content-Length") || name.equalsIgnoringASCIICase("Transfer-Encoding") { return .framing }
        if name.equalsIgnoringASCIICase("Connection") { return .connection }
        return .field
    }

    /// Whether a `Connection` value lists `close`.
    static func asksToClose(_ value: String) -> Bool {
        value.split(separator: ",").contains { $0.trimmingASCIISpaces().equalsIgnoringASCIICase("close") }
    }

    /// CR, LF or NUL: bytes that would end a header line (or a C string) early.
    static func breaksLine(_ byte: UInt8) -> Bool { byte == 0x0D || byte == 0x0A || byte == 0 }

    static func breaksLine(_ text: String) -> Bool { text.utf8.contains(where: breaksLine) }
}
