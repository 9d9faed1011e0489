#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A response to encode: status, extra headers and the full body, nothing else. What the
/// transport, the log and the journal need besides (the owning system, the delivery, the log
/// level) travels beside it in the `RequestContext`.
///
/// `Date`, `Server`, `Content-Length` and `Connection` are added by the encoder (`Date` and
/// `Server` only when an `outsideFields` response has none of its own).
@usableFromInline package struct HTTPResponse: Sendable {
    package var status: HTTPStatus
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The status message or fields came from outside the server's code (a stub mapping, a
    /// template over the request, an upstream): the encoder lets the response's `Date` and
    /// `Server` replace its own (it checks every answer's head for CR, LF and NUL).
    package var outsideFields: Bool {
        get { outside != .no }
        set { outside = newValue ? (outside == .no ? .fields : outside) : .no }
    }
    /// An `outsideFields` answer (setting it sets that too) sent with `Transfer-Encoding: chunked`
    /// rather than `Content-Length` (to an HTTP/1.1 request; HTTP/1.0 has no chunked coding), as
    /// WireMock sends a stub answer whose mapping gives no `Content-Length`.
    package var chunked: Bool {
        get { outside == .chunked }
        set { outside = newValue ? .chunked : (outside == .no ? .no : .fields) }
    }
    /// Both facts in one byte: a second stored flag changed the layout of every enum holding a
    /// response, and destroying the router's outcome became a call on every request.
    private var outside = Outside.no
    private enum Outside: UInt8 { case no, fields, chunked }

    package init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package static let jsonContentType = "application/json; charset=utf-8"
    package static let textContentType = "text/plain; charset=utf-8"

    // Shared, so a response's one header costs no allocation (copy-on-write).
    private static let jsonHeaders: HTTPHeaders = ["Content-Type": jsonContentType]
    private static let textHeaders: HTTPHeaders = ["Content-Type": textContentType]

    /// A JSON body already encoded (for pages built once and served many times).
    package static func json(_ status: HTTPStatus = .ok, bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: bytes)
    }

    /// A JSON body from an `Encodable` value; keys keep their declared names.
    package static func json<T: Encodable>(_ status: HTTPStatus = .ok, _ value: T) -> HTTPResponse {
        json(status, bytes: JSON.encode(value))
    }

    /// The transport's own error body, `{"error": true, "reason": …}` (the shape of Vapor, whose
    /// server the rows app copies; the default for errors no system claims).
    package static func jsonError(_ status: HTTPStatus, _ reason: String) -> HTTPResponse {
        json(status, ["error": true, "reason": .string(reason)] as JSONValue)
    }

    /// A plain UTF-8 text body.
    package static func text(_ status: HTTPStatus = .ok, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: textHeaders, body: Array(text.utf8))
    }

    /// The header that carries a hint: the likely client mistake and its fix (README, "Hints").
    static let hintHeader = "X-Mock-Hint"

    /// This response with a hint (README, "Hints"): the body is unchanged, `X-Mock-Hint` is added.
    package func hinted(_ hint: String) -> HTTPResponse {
        var copy = self
        copy.headers.set(HTTPResponse.hintHeader, hint)
        return copy
    }

    /// The hint this response sends (its `X-Mock-Hint` header), read back for the log and the journal.
    package var hint: String? { headers[HTTPResponse.hintHeader] }

    /// No body at all.
    package static func empty(_ status: HTTPStatus = .noContent) -> HTTPResponse {
        HTTPResponse(status: status)
    }
}

/// Transport directives a fault puts on an answer (docs/control-plane.md), carried in its
/// `RequestContext`; the default sends it at once.
package struct Delivery: Sendable, Equatable {
    /// What happens on the wire instead of, or with, the normal answer.
    package enum Action: Sendable, Equatable {
        /// Send the response as encoded.
        case send
        /// Close the connection without answering.
        case close
        /// Close with a TCP reset (SO_LINGER 0).
        case reset
        /// Send the status line, the headers and half of the body, then close.
        case truncate
        /// Send the body's bytes alone (no status line, no headers), then close: a peer that
        /// answers garbage or a broken chunk (WireMock's `RANDOM_DATA_THEN_CLOSE`).
        case raw
    }
    /// Hold the answer this long first, without blocking the event loop (later pipelined
    /// answers on the same connection wait behind it, in order).
    package var delayNanos: UInt64 = 0
    package var action: Action = .send
    /// Close the connection once this answer is sent, as a stub's `Connection: close` asks (the
    /// encoder then writes `Connection: close` itself).
    package var closesConnection = false
    /// Hold the answer until this promise is completed (`RequestContext.deferring(_:until:)`).
    package var deferred: DeferredResponse?
    /// Told the answer actually sent (a deferred answer's replacement or timeout answer), on the
    /// loop thread, once its bytes are queued (or, for a held answer whose connection goes away
    /// first, then): the journal records a held answer here. Nil (the usual case) costs nothing.
    package var onSent: (@Sendable (HTTPResponse) -> Void)?
    /// Send the body in pieces over time (a stub's `chunkedDribbleDelay`); nil, the usual case, sends it whole.
    package var dribble: Dribble?

    /// `pieces` writes of the body, one every `totalNanos / pieces`, paced by the loop's timers.
    package struct Dribble: Sendable, Equatable {
        package var pieces: Int
        package var totalNanos: UInt64
        package init(pieces: Int, totalNanos: UInt64) { self.pieces = pieces; self.totalNanos = totalNanos }

        /// Where each piece of a `count`-byte body ends: `pieces` near-equal runs (fewer when the body is shorter).
        package func boundaries(bodyCount count: Int) -> [Int] {
            let n = max(1, min(pieces, count))
            return (1...n).map { count * $0 / n }
        }
    }

    package init(delayNanos: UInt64 = 0, action: Action = .send) {
        self.delayNanos = delayNanos
        self.action = action
    }

    package static func == (a: Delivery, b: Delivery) -> Bool {
        a.delayNanos == b.delayNanos && a.action == b.action && a.deferred === b.deferred && a.closesConnection == b.closesConnection
            && a.dribble == b.dribble
    }
}
