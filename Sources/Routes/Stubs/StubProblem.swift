import HTTPServer

/// Why a mapping (or a request pattern) was refused: where (a JSON pointer such as
/// `/request/bodyPatterns/0/matches`) and what; answered as WireMock's 422 error shape.
package struct StubProblem: Error, Sendable, CustomStringConvertible {
    /// A JSON pointer to the field at fault, `/` for the whole document.
    package var pointer: String
    /// What is wrong and how to fix it.
    package var detail: String

    package init(_ pointer: String, _ detail: String) {
        self.pointer = pointer.isEmpty ? "/" : pointer
        self.detail = detail
    }

    package var description: String { "\(pointer): \(detail)" }

    /// `{"errors": [{"code": 10, "source": {"pointer"}, "title", "detail"}]}`, as WireMock answers a bad mapping.
    package var json: JSONValue {
        ["errors": [["code": 10, "source": ["pointer": .string(pointer)], "title": "Error parsing JSON", "detail": .string(detail)]]]
    }

    /// The 422 with the problem as the hint too (`X-Mock-Hint`).
    package var response: HTTPResponse {
        HTTPResponse.json(HTTPStatus(code: 422), bytes: Array(json.jsonText.utf8)).hinted(StubProblem.ascii(description))
    }

    /// A header value keeps printable ASCII only.
    static func ascii(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(300).map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }
}

/// Reads a JSON object field by field, refusing any field it was not asked for.
struct StrictObject {
    let pointer: String
    private let members: [(key: String, value: JSONValue)]

    init(_ value: JSONValue, at pointer: String, what: String) throws(StubProblem) {
        guard case .object(let members) = value else { throw StubProblem(pointer, "\(what) must be a JSON object") }
        self.pointer = pointer
        self.members = members
    }

    /// Throws for the first field not in `known`, naming it and the fields that are.
    func allow(_ known: [String], unsupported: [String: String] = [:]) throws(StubProblem) {
        for member in members where !known.contains(member.key) {
            if let why = unsupported[member.key] { throw StubProblem(pointer + "/" + member.key, why) }
            throw StubProblem(pointer + "/" + member.key,
                              "unknown or unsupported field \"\(member.key)\" (supported here: \(known.joined(separator: ", ")))")
        }
    }

    var keys: [String] { members.map(\.key) }

    subscript(key: String) -> JSONValue? {
        guard let value = members.last(where: { $0.key == key })?.value, value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(StubProblem) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let s) = value else { throw StubProblem(pointer + "/" + key, "\"\(key)\" must be a string") }
        return s
    }

    func bool(_ key: String) throws(StubProblem) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let b) = value else { throw StubProblem(pointer + "/" + key, "\"\(key)\" must be true or false") }
        return b
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(StubProblem) -> Int? {
        guard let value = self[key] else { return nil }
        guard case .number(let d) = value, d.rounded() == d, d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw StubProblem(pointer + "/" + key, "\"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(d)
    }

    func number(_ key: String) throws(StubProblem) -> Double? {
        guard let value = self[key] else { return nil }
        guard case .number(let d) = value, d.isFinite else { throw StubProblem(pointer + "/" + key, "\"\(key)\" must be a number") }
        return d
    }

    /// An object's members, each read by `body` (for maps such as `headers` and `queryParameters`).
    func map<T>(_ key: String, _ body: (String, JSONValue, String) throws(StubProblem) -> T) throws(StubProblem) -> [(String, T)] {
        guard let value = self[key] else { return [] }
        guard case .object(let entries) = value else { throw StubProblem(pointer + "/" + key, "\"\(key)\" must be a JSON object") }
        var out: [(String, T)] = []
        for entry in entries { out.append((entry.key, try body(entry.key, entry.value, pointer + "/" + key + "/" + entry.key))) }
        return out
    }
}

extension JSONValue {
    /// The members of an object, in order; empty for anything else.
    var stubMembers: [(key: String, value: JSONValue)] {
        if case .object(let m) = self { return m }
        return []
    }

    /// This object with `key` set (replaced in place, or appended).
    func stubSetting(_ key: String, _ value: JSONValue) -> JSONValue {
        var members = stubMembers
        if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = value } else { members.append((key: key, value: value)) }
        return .object(members)
    }

    /// Text for a matcher: a string as it is, anything else as JSON.
    var stubText: String {
        switch self {
        case .string(let s): return s
        case .number(let d): return JSONValue.numberText(d)
        default: return jsonText
        }
    }
}
