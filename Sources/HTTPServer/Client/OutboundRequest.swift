/// One request for an upstream, as the outbound client sends it: the head's parts and the whole
/// body (request bodies are bounded by the server's own limit before they get here).
package struct OutboundRequest: Sendable {
    package var upstream: Upstream
    package var method: String
    /// The request target as sent: path and query (`/a/b?c=d`).
    package var target: String
    /// End-to-end fields only (`HopByHop.endToEnd`); `Host`, `Content-Length` and `Connection`
    /// are written by the client.
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The `Host` field to send; nil: the upstream's own `host[:port]`.
    package var host: String?

    package init(upstream: Upstream, method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], host: String? = nil) {
        self.upstream = upstream
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.host = host
    }
}

/// An upstream's answer: status, reason, its end-to-end fields (hop-by-hop and framing fields
/// removed, but a HEAD answer's `Content-Length`) and the whole body, de-chunked.
package struct OutboundResponse: Sendable {
    package var status: Int
    package var reason: String
    package var headers: HTTPHeaders
    package var body: [UInt8]
}

/// Why an upstream gave no answer.
package struct OutboundFailure: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// `--outbound` does not let proxies reach the host.
        case notAllowed
        /// The name resolved to nothing.
        case unresolved
        /// Connection refused, or no route.
        case refused
        /// The connection was reset or closed before the answer was complete.
        case reset
        /// No connection, or no complete answer, within the timeout.
        case timedOut
        /// TLS: OpenSSL is missing, the handshake failed, or the certificate was not trusted.
        case tls
        /// The answer broke HTTP/1.1 or passed a bound (head or body size).
        case malformed
    }
    package var kind: Kind
    package var detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}

package typealias OutboundResult = Result<OutboundResponse, OutboundFailure>
