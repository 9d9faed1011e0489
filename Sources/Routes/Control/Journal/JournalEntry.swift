#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import MockAdminWire

/// One journaled request or gateway message. Recording keeps references to the request's and
/// response's own storage (header list, body arrays, message text and reply list are all
/// copy-on-write, so keeping one is a retain, not a copy); cutting, redaction and JSON happen only
/// when the entry is read. The entry is its id and one reference, so writing it into the ring or
/// handing it to a listener copies 16 bytes.
package struct JournalEntry: Sendable {
    /// Bodies up to this size are kept by reference (no copy); larger ones are cut when recorded.
    package static let keepWhole = 16 * 1024
    /// What the journal shows of a body (docs/control-plane.md).
    package static let bodyLimit = 4096

    package internal(set) var id = 0
    private let record: Record

    /// What was exchanged, as the transport had it.
    private final class Record: Sendable {
        let at: Date
        let durationNanos: UInt64
        let system: String?
        /// The peer's IP address as text (`RequestContext.remoteAddress`): a short string, kept
        /// as the connection has it (no copy).
        let remoteAddress: String
        let method: String
        let path: String
        let query: String
        let status: Int?
        let requestHeaders: HTTPHeaders
        /// The response's fields as the stages made them (kept by reference, formatted only when
        /// exported: `GET /__mock/requests.har`).
        let responseHeaders: HTTPHeaders
        let requestBody: Body
        let responseBody: Body
        let hint: String?
        let fault: MockJournalEntry.Fault?
        /// The stub mapping that answered.
        let stub: StubReference?
        /// The request's body was over `keepWhole` and only its start is kept.
        let requestCut: Bool
        /// The response's body was over `keepWhole` and only its start is kept.
        let responseCut: Bool

        init(at: Date, durationNanos: UInt64, system: String?, remoteAddress: String, method: String, path: String, query: String, status: Int?,
             requestHeaders: HTTPHeaders, responseHeaders: HTTPHeaders, requestBody: Body, responseBody: Body, hint: String?, fault: MockJournalEntry.Fault?,
             stub: StubReference? = nil) {
            self.at = at
            self.durationNanos = durationNanos
            self.system = system
            self.remoteAddress = remoteAddress
            self.method = method
            self.path = path
            self.query = query
            self.status = status
            self.requestHeaders = requestHeaders
            self.responseHeaders = responseHeaders
            // Huge bodies would pin megabytes in a ring of a thousand entries: keep their start only.
            let cutRequest = requestBody.count > JournalEntry.keepWhole
            let cutResponse = responseBody.count > JournalEntry.keepWhole
            self.requestBody = cutRequest ? requestBody.start : requestBody
            self.responseBody = cutResponse ? responseBody.start : responseBody
            self.hint = hint
            self.fault = fault
            self.stub = stub
            requestCut = cutRequest
            responseCut = cutResponse
        }
    }

    /// A body as received or sent, joined only when read.
    private enum Body: Sendable {
        case bytes([UInt8])
        /// A gateway reply's messages, shown joined by line feeds.
        case messages([WebSocketPayload])

        var count: Int {
            switch self {
            case .bytes(let b): return b.count
            case .messages(let ms): return ms.reduce(max(0, ms.count - 1)) { $0 + $1.bytes.count }
            }
        }

        var bytes: [UInt8] {
            switch self {
            case .bytes(let b): return b
            case .messages(let ms):
                return ms.count == 1 ? ms[0].bytes : Array(ms.map(\.bytes).joined(separator: [10]))
            }
        }

        /// The part kept of a body over `keepWhole`: what is shown, and one byte more so the
        /// cut still sees whether it splits a character and the entry reads as truncated.
        var start: Body { .bytes(Array(bytes.prefix(JournalEntry.bodyLimit + 1))) }
    }

    package init(at: Date, system: String?, method: String, path: String, query: String, status: Int?,
                durationNanos: UInt64, requestHeaders: HTTPHeaders, requestBody: [UInt8], responseBody: [UInt8], hint: String?) {
        self.init(at: at, durationNanos: durationNanos, system: system, method: method, path: path, query: query, status: status,
                  requestHeaders: requestHeaders, requestBody: requestBody, responseBody: responseBody, hint: hint, fault: nil)
    }

    /// An HTTP request and the response as delivered (see `sent`); `remoteAddress` is the peer's.
    /// `responseHeaders` is the response's own value, kept as it is (a retain, no copy).
    package init(at: Date, durationNanos: UInt64, system: String?, method: String, path: String, query: String, status: Int?,
         requestHeaders: HTTPHeaders, requestBody: [UInt8], responseHeaders: HTTPHeaders = HTTPHeaders(), responseBody: [UInt8], hint: String?,
         fault: FaultRule?, stub: StubReference? = nil, remoteAddress: String = "") {
        record = Record(at: at, durationNanos: durationNanos, system: system, remoteAddress: remoteAddress, method: method, path: path, query: query,
                        status: status, requestHeaders: requestHeaders, responseHeaders: responseHeaders, requestBody: .bytes(requestBody),
                        responseBody: .bytes(responseBody), hint: hint, fault: fault.map(MockJournalEntry.Fault.init), stub: stub)
    }

    /// The status and body on the wire: none when the connection was closed or reset instead,
    /// half the body when truncated.
    @inline(__always)
    package static func sent(_ action: Delivery.Action, status: Int, body: [UInt8]) -> (status: Int?, body: [UInt8]) {
        switch action {
        case .close, .reset, .raw: return (nil, [])
        case .truncate: return (status, Array(body.prefix(body.count / 2)))
        case .send: return (status, body)
        }
    }

    /// A system's WebSocket message and the reply's messages (`method: "WS"`, status 101); its
    /// `path` is the message's `type`: `type` when the control plane read it already, else
    /// parsed when the entry is read. `remoteAddress` is the connection's peer.
    package init(webSocketMessage message: WebSocketPayload, type: String? = nil, replies: [WebSocketPayload], system: String, at: Date,
                 durationNanos: UInt64, fault: FaultRule?, remoteAddress: String = "") {
        record = Record(at: at, durationNanos: durationNanos, system: system, remoteAddress: remoteAddress, method: "WS", path: type ?? "", query: "", status: 101,
                        requestHeaders: HTTPHeaders(), responseHeaders: HTTPHeaders(), requestBody: .bytes(message.bytes), responseBody: .messages(replies),
                        hint: nil, fault: fault.map(MockJournalEntry.Fault.init))
    }

    package var at: Date { record.at }
    package var system: String? { record.system }
    /// The peer's IP address (`127.0.0.1`, `::1`); empty when unknown (an entry made in process).
    package var remoteAddress: String { record.remoteAddress }
    /// `GET`…, or `WS` for a gateway message.
    package var method: String { record.method }
    /// The request path; for a gateway message its `type` (read when the entry is read).
    package var path: String { record.path }
    package var query: String { record.query }
    /// The status sent; nil when the connection was closed or reset without an answer.
    package var status: Int? { record.status }
    package var durationNanos: UInt64 { record.durationNanos }
    package var requestHeaders: HTTPHeaders { record.requestHeaders }
    /// The response's fields (none for a WebSocket message).
    package var responseHeaders: HTTPHeaders { record.responseHeaders }
    package var requestBody: [UInt8] { record.requestBody.bytes }
    package var responseBody: [UInt8] { record.responseBody.bytes }
    package var hint: String? { record.hint }
    /// The fault that fired on it.
    package var fault: MockJournalEntry.Fault? { record.fault }
    /// The stub mapping that answered it.
    package var stub: StubReference? { record.stub }

    package var isWebSocket: Bool { method == "WS" }

    /// The path a filter and a reader see: for a WebSocket message, the type its system gives it.
    package func shownPath(_ reading: EntryReading) -> String {
        guard isWebSocket, path.isEmpty else { return path }
        return reading.messageType(of: requestBody, system: system) ?? ""
    }

    /// The request body as the entry shows it: cut, and secrets redacted (what `?body=` searches).
    func shownRequestBody(_ reading: EntryReading) -> String {
        reading.redaction.body(JournalEntry.shown(requestBody), contentType: requestHeaders["Content-Type"])
    }

    /// Only the start of the response's body is kept (it was over `keepWhole`).
    var responseCut: Bool { record.responseCut }

    /// Only the start of the request's body is kept (it was over `keepWhole`).
    var requestCut: Bool { record.requestCut }

    package var truncated: Bool {
        record.requestCut || record.responseCut || record.requestBody.count > JournalEntry.bodyLimit || record.responseBody.count > JournalEntry.bodyLimit
    }

    /// The entry as docs/control-plane.md shows it, secrets redacted: the admin client's
    /// ``MockJournalEntry``, so the shape is written once.
    package func wire(_ reading: EntryReading) -> MockJournalEntry {
        let redaction = reading.redaction
        // A gzip or deflate answer is shown decoded (one byte more than is shown, to see a cut).
        let decoded = decodedResponseBody(limit: JournalEntry.bodyLimit + 1)
        let shownResponse = decoded ?? responseBody
        return MockJournalEntry(
            id: id, at: at, system: system, clientIp: remoteAddress, method: method, path: shownPath(reading), query: redaction.form(query),
            status: status, durationMs: Double(durationNanos / 1000) / 1000,
            requestHeaders: requestHeaders.map { (name: $0.name, value: redaction.header($0.name, $0.value)) },
            requestBody: shownRequestBody(reading),
            responseBody: redaction.body(JournalEntry.shown(shownResponse), contentType: nil),
            hint: hint, truncated: truncated || shownResponse.count > JournalEntry.bodyLimit, fault: fault, stub: stub)
    }

    /// The response body decoded when its `Content-Encoding` is `gzip` or `deflate` (its first
    /// `limit` bytes at most; a body the journal cut decodes as far as it goes); nil for any other
    /// body, or one that does not decode.
    func decodedResponseBody(limit: Int) -> [UInt8]? {
        guard let coding = responseHeaders["Content-Encoding"], !responseBody.isEmpty else { return nil }
        return try? Inflate.decode(responseBody, contentEncoding: coding, limit: limit, partial: responseCut, cut: true)
    }

    /// ``wire(_:)`` as JSON, members in the wire type's order.
    package func json(_ reading: EntryReading) -> JSONValue { (try? JSONValue(encoding: wire(reading))) ?? .null }

    /// The first 4,096 bytes of a body, cut back to the start of a UTF-8 character (at most 3
    /// bytes shorter) so the shown text never ends in a replacement character.
    package static func shown(_ body: [UInt8]) -> [UInt8] {
        guard body.count > bodyLimit else { return body }
        var end = bodyLimit
        // A continuation byte (10xxxxxx) right after the cut means a character was split.
        while end > bodyLimit - 3 && body[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(body[..<end])
    }
}

extension MockJournalEntry.Fault {
    /// The rule that fired, as a journal entry names it.
    package init(_ rule: FaultRule) { self.init(id: rule.id, action: rule.action) }
}
