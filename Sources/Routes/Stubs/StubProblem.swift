import HTTPServer

/// Why a mapping (or a request pattern) was refused: where (a JSON pointer such as
/// `/request/bodyPatterns/0/matches`) and what; answered as WireMock's 422 error shape.
///
/// Two readings of one mistake: ours (`pointer` at the field itself, `detail` saying what to do),
/// for the log, the refused-mappings list and the `X-Mock-Hint` header; and WireMock 2.35's
/// (`wireMockPointer`, `wireMockDetail`), for the 422 body, which WireMock's clients parse.
package struct StubProblem: Error, Sendable, CustomStringConvertible {
    /// A JSON pointer to the field at fault, `/` for the whole document.
    package var pointer: String
    /// What is wrong and how to fix it.
    package var detail: String
    /// Where WireMock 2.35 points for the same mistake when that differs (it names the matcher
    /// holding the operator, `/request/bodyPatterns/0`, not the operator's field); empty when it
    /// names no place (a syntax error of the whole document: `"source": {}`).
    var wireMockPointer: String?
    /// WireMock 2.35's own words for the same mistake, where it has words this server can give
    /// (so WireMock refuses it too).
    var wireMockDetail: String?
    /// WireMock 2.35 refuses this mapping too, though this server cannot give its words.
    var wireMockAlsoRefuses = false
    /// WireMock refuses it too, so the body takes WireMock's pointer; false for this server's own
    /// refusals and limits (the body keeps this server's pointer and sentence).
    var wireMockRefuses: Bool { wireMockAlsoRefuses || wireMockDetail != nil }

    package init(_ pointer: String, _ detail: String) {
        self.pointer = pointer.isEmpty ? "/" : pointer
        self.detail = detail
    }

    /// A problem with WireMock's own words for the body (`wireMockDetail`) and ours for the hint.
    init(_ pointer: String, _ detail: String, wireMock wireMockDetail: String) {
        self.init(pointer, detail)
        self.wireMockDetail = wireMockDetail
    }

    package var description: String { "\(pointer): \(detail)" }

    /// `{"errors": [{"code": 10, "source": {"pointer"}, "title", "detail"}]}`, as WireMock answers a bad
    /// mapping: WireMock's pointer and words where known, ours otherwise.
    package var json: JSONValue {
        let place = wireMockPointer ?? pointer
        let source: JSONValue = place.isEmpty ? .object([]) : ["pointer": .string(place)]
        return ["errors": [["code": 10, "source": source, "title": "Error parsing JSON", "detail": .string(wireMockDetail ?? detail)]]]
    }

    /// The 422: WireMock's document in the body, our sentence in the hint (`X-Mock-Hint`).
    package var response: HTTPResponse {
        HTTPResponse.json(HTTPStatus(code: 422), bytes: Array(json.jsonText.utf8)).hinted(StubProblem.ascii(description))
    }

    /// This problem as WireMock would point at it from `pointer` (the matcher or object that
    /// WireMock's deserialiser was reading), unless a deeper reading already said where; only
    /// when WireMock refuses it too.
    func pointedByWireMock(at pointer: String) -> StubProblem {
        var copy = self
        if copy.wireMockRefuses && copy.wireMockPointer == nil { copy.wireMockPointer = pointer.isEmpty ? "/" : pointer }
        return copy
    }

    /// This problem with WireMock's pointer moved from under `old` to under `new` (where WireMock's
    /// path leaves out a level this server names).
    func replacingWireMockPrefix(_ old: String, with new: String) -> StubProblem {
        var copy = self
        if let current = copy.wireMockPointer, current == old || current.hasPrefix(old + "/") {
            copy.wireMockPointer = new + current.dropFirst(old.count)
        }
        return copy
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

    /// Throws for the first field not in `known`, naming it and the fields that are; in Jackson's
    /// words too when `wireMock`'s class would refuse that field as well.
    func allow(_ known: [String], unsupported: [String: String] = [:], wireMock: WireMockFields? = nil) throws(StubProblem) {
        for member in members where !known.contains(member.key) {
            if let why = unsupported[member.key] { throw StubProblem(pointer + "/" + member.key, why) }
            var problem = StubProblem(pointer + "/" + member.key,
                                      "unknown or unsupported field \"\(member.key)\" (supported here: \(known.joined(separator: ", ")))")
            problem.wireMockDetail = wireMock?.unrecognized(member.key)
            throw problem
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
