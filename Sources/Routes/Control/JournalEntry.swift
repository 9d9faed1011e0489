import Foundation
import HTTPServer

/// One journaled request or gateway message, stored as received (cheap to record) and
/// redacted and encoded only when read.
public struct JournalEntry: Sendable {
    /// Bodies up to this size are kept by reference (no copy); larger ones are cut when recorded.
    static let keepWhole = 16 * 1024
    /// What the journal shows of a body (API.md §6.1).
    public static let bodyLimit = 4096

    public internal(set) var id = 0
    public var at: Date
    public var system: String?
    /// `GET`…, or `WS` for a gateway message.
    public var method: String
    /// The request path; for a gateway message its `type` (read when the entry is read).
    public var path: String
    public var query: String
    /// The status sent; nil when the connection was closed or reset without an answer.
    public var status: Int?
    public var durationNanos: UInt64
    public var requestHeaders: HTTPHeaders
    public var requestBody: [UInt8]
    public var responseBody: [UInt8]
    public var hint: String?
    /// The fault that fired on it.
    public var fault: FiredFault?
    private var cut = false

    /// A fault rule's id and action, as the entry shows them.
    public struct FiredFault: Sendable {
        public var id: Int
        public var action: FaultAction
    }

    public init(at: Date, system: String?, method: String, path: String, query: String, status: Int?,
                durationNanos: UInt64, requestHeaders: HTTPHeaders, requestBody: [UInt8], responseBody: [UInt8], hint: String?) {
        self.at = at
        self.system = system
        self.method = method
        self.path = path
        self.query = query
        self.status = status
        self.durationNanos = durationNanos
        self.requestHeaders = requestHeaders
        self.hint = hint
        self.requestBody = []
        self.responseBody = []
        self.requestBody = keep(requestBody)
        self.responseBody = keep(responseBody)
    }

    /// Keeps a body by reference when small, else copies the shown prefix (bounds the ring's memory).
    private mutating func keep(_ body: [UInt8]) -> [UInt8] {
        guard body.count > JournalEntry.keepWhole else { return body }
        cut = true
        return Array(body.prefix(JournalEntry.bodyLimit))
    }

    var isWebSocket: Bool { method == "WS" }

    /// The path a filter and a reader see: a gateway message's `type`.
    var shownPath: String {
        guard isWebSocket, path.isEmpty else { return path }
        return JSONValue.parse(requestBody)?["type"]?.string ?? ""
    }

    var truncated: Bool { cut || requestBody.count > JournalEntry.bodyLimit || responseBody.count > JournalEntry.bodyLimit }

    /// The entry as API.md §6.1 shows it, secrets redacted.
    public var json: [String: Any] {
        var headers: [String: Any] = [:]
        for field in requestHeaders {
            let value = Redaction.header(field.name, field.value)
            if let earlier = headers[field.name] as? String { headers[field.name] = earlier + ", " + value } else { headers[field.name] = value }
        }
        let contentType = requestHeaders["Content-Type"]
        var object: [String: Any] = [
            "id": id,
            "at": JournalEntry.timestamp(at),
            "system": system ?? NSNull(),
            "method": method,
            "path": shownPath,
            "query": Redaction.form(query),
            "status": status ?? NSNull(),
            "durationMs": Double(durationNanos / 1000) / 1000,
            "requestHeaders": headers,
            "requestBody": Redaction.body(JournalEntry.shown(requestBody), contentType: contentType),
            "responseBody": Redaction.body(JournalEntry.shown(responseBody), contentType: nil),
            "hint": hint ?? NSNull(),
        ]
        if truncated { object["truncated"] = true }
        if let fault { object["fault"] = ["id": fault.id, "action": fault.action.json] }
        return object
    }

    /// The first 4,096 bytes of a body, cut back to the start of a UTF-8 character (at most 3
    /// bytes shorter) so the shown text never ends in a replacement character.
    static func shown(_ body: [UInt8]) -> [UInt8] {
        guard body.count > bodyLimit else { return body }
        var end = bodyLimit
        // A continuation byte (10xxxxxx) right after the cut means a character was split.
        while end > bodyLimit - 3 && body[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(body[..<end])
    }

    /// ISO 8601 UTC with milliseconds (entries of one second must stay apart).
    static func timestamp(_ date: Date) -> String {
        let seconds = ISO8601.string(date)
        let millis = Int((date.timeIntervalSince1970 - floor(date.timeIntervalSince1970)) * 1000)
        let text = String(millis)
        return String(seconds.dropLast()) + "." + String(repeating: "0", count: 3 - text.count) + text + "Z"
    }
}
