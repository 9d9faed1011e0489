#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import MockAdminWire

/// One fault rule (docs/control-plane.md): which requests or WebSocket messages (the gateway's) it matches, what it does,
/// and how many more times it fires (nil: until removed).
package struct FaultRule: Sendable {
    package let id: Int
    /// Upper-cased; nil matches every method.
    package let method: String?
    package let path: PathPattern
    /// A system name; a system whose faults match message types makes it a rule on those.
    package let system: String?
    /// Whether `path` is a WebSocket message type of `system` rather than an HTTP path.
    let isMessageRule: Bool
    package let times: Int?
    package internal(set) var remaining: Int?
    package let action: FaultAction

    /// Whether it applies to an HTTP request of a system (nil: a path no system claims).
    package func matches(method: String, path: String, system: String?) -> Bool {
        guard !isMessageRule else { return false }
        if let s = self.system, s != system { return false }
        if let m = self.method, !m.equalsIgnoringASCIICase(method) { return false }
        return self.path.matches(path)
    }

    /// Whether it applies to a WebSocket message of this type sent to `system`.
    package func matches(messageType: String, system: String) -> Bool {
        isMessageRule && self.system == system && path.matches(messageType)
    }

    /// The rule as `GET /__mock/faults` lists it.
    package var json: JSONValue {
        let rule = MockFaultRule(id: id, method: method, path: path.text, system: system, times: times, remaining: remaining, action: action)
        return (try? JSONValue(encoding: rule)) ?? .null
    }
}

/// A rule as posted, checked; `FaultStore.add` gives it its id.
package struct FaultRuleDraft: Sendable {
    package var method: String?
    package var path: PathPattern
    package var system: String?
    package var times: Int?
    package var action: FaultAction
    /// Whether `path` is a message type: the system's faults match message types and the path
    /// is not an HTTP path (message types never start with `/`).
    let isMessageRule: Bool

    static func isMessageRule(system: String?, path: String, systems: SystemCatalog) -> Bool {
        !path.hasPrefix("/") && (system.map(systems.messageTypedNames.contains) ?? false)
    }

    /// Why a posted rule was refused (400 with this message).
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    package static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "WS"]

    /// Reads and checks a posted rule body against the running `systems`.
    package static func parse(_ body: [UInt8], systems: SystemCatalog) throws -> FaultRuleDraft {
        guard let object = JSONValue.parse(body)?.members else {
            throw Invalid("the body must be a JSON object {\"path\", \"method\"?, \"system\"?, \"times\"?, \"action\": {…}}")
        }
        let known: Set<String> = ["method", "path", "system", "times", "action"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Invalid("unknown field \"\(unknown)\" (fields: method, path, system, times, action)")
        }
        guard let path = object["path"]?.string, !path.isEmpty else {
            throw Invalid("\"path\" is required: a path, a pattern with * (\"/api/*\"), or a \(systems.messageTypedTitle) message type")
        }
        var system: String?
        if let value = object["system"], value != .null {
            guard let name = value.string, systems.names.contains(name) else {
                throw Invalid("\"system\" must be one of \(systems.names.joined(separator: ", "))")
            }
            system = name
        }
        var method: String?
        if let value = object["method"], value != .null {
            guard let name = value.string, methods.contains(name.uppercased()) else {
                throw Invalid("\"method\" must be one of \(methods.sorted().joined(separator: ", "))")
            }
            method = name.uppercased()
        }
        let messageRule = isMessageRule(system: system, path: path, systems: systems)
        if !messageRule {
            guard path.hasPrefix("/") || path.hasPrefix("*") else {
                throw Invalid("\"path\" must start with / or * (\(systems.messageTypedTitle) message types need \"system\": \"\(systems.messageTypedTitle)\")")
            }
            if path.lowercased().hasPrefix("/__mock") {
                throw Invalid("admin paths (/__mock/…) cannot be faulted")
            }
        }
        var times: Int?
        if let value = object["times"], value != .null {
            guard let n = integer(value), n >= 1, n <= 1_000_000_000 else { throw Invalid("\"times\" must be a whole number of at least 1") }
            times = n
        }
        guard let actionObject = object["action"]?.members else {
            throw Invalid("\"action\" is required: an object such as {\"status\": 503} or {\"delayMs\": 2000}")
        }
        let action = try parseAction(actionObject)
        if messageRule && !action.isMessageAction {
            throw Invalid("a \(systems.messageTypedTitle) rule takes delayMs, reply, noReply or closeCode, not \(action.name)")
        }
        if !messageRule && !action.isHTTPAction {
            throw Invalid("\(action.name) is a \(systems.messageTypedTitle) action: add \"system\": \"\(systems.messageTypedTitle)\" and a message type as \"path\"")
        }
        return FaultRuleDraft(method: method, path: PathPattern(path), system: system, times: times, action: action, isMessageRule: messageRule)
    }

    private static func parseAction(_ object: [String: JSONValue]) throws -> FaultAction {
        func flag(_ key: String) throws {
            guard object[key] == .bool(true) else { throw Invalid("\"\(key)\" must be true") }
        }
        let kinds = ["delayMs", "status", "close", "reset", "truncate", "malformedJSON", "reply", "noReply", "closeCode"]
        let present = kinds.filter { object[$0] != nil }
        guard present.count == 1, let kind = present.first else {
            throw Invalid("\"action\" must have exactly one of \(kinds.joined(separator: ", "))")
        }
        let allowed: Set<String> = kind == "status" ? ["status", "body", "headers"] : [kind]
        if let extra = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw Invalid("\"action\" field \"\(extra)\" does not go with \(kind)")
        }
        switch kind {
        case "delayMs":
            guard let ms = integer(object[kind]), ms >= 0, ms <= 600_000 else {
                throw Invalid("\"delayMs\" must be a whole number of milliseconds from 0 to 600000")
            }
            return .delay(milliseconds: ms)
        case "status":
            guard let status = integer(object[kind]), (200...599).contains(status) else {
                throw Invalid("\"status\" must be a whole number from 200 to 599")
            }
            var body: String?
            if let value = object["body"], value != .null {
                guard let text = value.string else { throw Invalid("\"body\" must be a string (the exact body to send)") }
                body = text
            }
            var headers: [String: String] = [:]
            if let value = object["headers"], value != .null {
                guard let fields = value.members else { throw Invalid("\"headers\" must be an object of strings") }
                for (name, v) in fields.sorted(by: { $0.key < $1.key }) {
                    guard let text = v.string, isToken(name), !text.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                        throw Invalid("header \"\(name)\" must be a valid header name with a one-line string value")
                    }
                    if ["content-length", "transfer-encoding", "connection"].contains(name.lowercased()) {
                        throw Invalid("header \"\(name)\" is set by the server")
                    }
                    headers[name] = text
                }
            }
            return .respond(status: status, body: body, headers: headers)
        case "close": try flag(kind); return .close
        case "reset": try flag(kind); return .reset
        case "truncate": try flag(kind); return .truncate
        case "malformedJSON": try flag(kind); return .malformedJSON
        case "noReply": try flag(kind); return .noReply
        case "reply":
            guard let text = object[kind]?.string else { throw Invalid("\"reply\" must be a string (the text frame to send)") }
            return .reply(text)
        default:
            guard let code = integer(object[kind]), (1000...4999).contains(code), ![1004, 1005, 1006, 1015].contains(code) else {
                throw Invalid("\"closeCode\" must be a WebSocket close code a server may send (1000-4999, not 1004-1006 or 1015)")
            }
            return .closeCode(code)
        }
    }

    /// A JSON whole number (not a boolean, not a fraction).
    package static func integer(_ value: JSONValue?) -> Int? {
        guard case .number(let d)? = value else { return nil }
        guard d.isFinite, d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }
}
