import HTTPServer
import MockAdminWire
import EmulationKit

/// What a fault rule does (docs/control-plane.md): the wire type the admin client posts, checked
/// by `FaultRuleDraft.parse`.
package typealias FaultAction = MockFaultAction

extension MockFaultAction {
    /// The action's name in the API (`delayMs`, `status`, `close`, …).
    package var name: String {
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
    package var logText: String {
        switch self {
        case .delay(let ms): return "delayMs \(ms)"
        case .respond(let status, let body, _): return "status \(status)\(body == nil ? "" : " with a body")"
        case .reply(let text): return "reply " + JSONText.quoted(text.count > 60 ? String(text.prefix(60)) + "…" : text)
        case .closeCode(let code): return "closeCode \(code)"
        case .close, .reset, .truncate, .malformedJSON, .noReply: return name
        }
    }

    /// Actions a WebSocket message rule (the gateway's) may take.
    var isMessageAction: Bool {
        switch self {
        case .delay, .reply, .noReply, .closeCode: return true
        default: return false
        }
    }

    /// Actions an HTTP rule may take.
    var isHTTPAction: Bool {
        switch self {
        case .reply, .noReply, .closeCode: return false
        default: return true
        }
    }

    /// The action object as posted, in the wire type's member order.
    package var json: JSONValue { (try? JSONValue(encoding: self)) ?? .null }

    /// A substituted answer's headers in the order they are sent and listed: by name.
    func sortedHeaders(_ headers: [String: String]) -> [(name: String, value: String)] {
        headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }
}
