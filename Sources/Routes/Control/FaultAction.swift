import HTTPServer

/// What a fault rule does (docs/control-plane.md); the JSON names are the API's.
public enum FaultAction: Sendable, Equatable {
    /// Hold the answer (or the gateway reply) this many milliseconds, then answer normally.
    case delay(milliseconds: Int)
    /// Answer this instead; the handler does not run.
    case respond(status: Int, body: String?, headers: [HeaderField])
    /// Close the connection without an answer; the handler does not run.
    case close
    /// Close with a TCP reset; the handler does not run.
    case reset
    /// The real status line and headers, half the body, then close.
    case truncate
    /// The real status with a body that is not valid JSON.
    case malformedJSON
    /// Gateway: this text frame instead of the reply; the handler does not run.
    case reply(String)
    /// Gateway: no reply at all; the handler does not run.
    case noReply
    /// Gateway: close the WebSocket with this code instead of replying.
    case closeCode(Int)

    /// One header of a substituted answer.
    public struct HeaderField: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// The action's name in the API (`delayMs`, `status`, `close`, …).
    public var name: String {
        switch self {
        case .delay: return "delayMs"
        case .respond: return "status"
        case .close: return "close"
        case .reset: return "reset"
        case .truncate: return "truncate"
        case .malformedJSON: return "malformedJSON"
        case .reply: return "reply"
        case .noReply: return "noReply"
        case .closeCode: return "closeCode"
        }
    }

    /// The name with its value, for a log line: `status 503`, `delayMs 300`, `reply "…"`.
    public var logText: String {
        switch self {
        case .delay(let ms): return "delayMs \(ms)"
        case .respond(let status, let body, _): return "status \(status)\(body == nil ? "" : " with a body")"
        case .reply(let text): return "reply " + JSONText.quoted(text.count > 60 ? String(text.prefix(60)) + "…" : text)
        case .closeCode(let code): return "closeCode \(code)"
        case .close, .reset, .truncate, .malformedJSON, .noReply: return name
        }
    }

    /// Actions a WebSocket message rule (the gateway's) may take.
    public var isMessageAction: Bool {
        switch self {
        case .delay, .reply, .noReply, .closeCode: return true
        default: return false
        }
    }

    /// Actions an HTTP rule may take.
    public var isHTTPAction: Bool {
        switch self {
        case .reply, .noReply, .closeCode: return false
        default: return true
        }
    }

    /// The action object as posted.
    public var json: JSONValue {
        switch self {
        case .delay(let ms): return ["delayMs": JSONValue(ms)]
        case .respond(let status, let body, let headers):
            var object: JSONValue = ["status": JSONValue(status)]
            if let body { object.set("body", .string(body)) }
            if !headers.isEmpty {
                var h: JSONValue = [:]
                for field in headers { h.set(field.name, .string(field.value)) }
                object.set("headers", h)
            }
            return object
        case .close: return ["close": true]
        case .reset: return ["reset": true]
        case .truncate: return ["truncate": true]
        case .malformedJSON: return ["malformedJSON": true]
        case .reply(let text): return ["reply": .string(text)]
        case .noReply: return ["noReply": true]
        case .closeCode(let code): return ["closeCode": JSONValue(code)]
        }
    }
}
