/// JSONValue as Codable (seed values served back as written) and as JSON text.
extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    @usableFromInline package init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            // Key order as the decoder gives it; sorted, so the result does not depend on hashing.
            var members: [(key: String, value: JSONValue)] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append((key: key.stringValue, value: try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        let c = try decoder.singleValueContainer()
        // Bool before numbers, so `true` stays a boolean.
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else { self = .string(try c.decode(String.self)) }
    }

    @usableFromInline package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .number(let d):
            var c = encoder.singleValueContainer()
            if let i = JSONValue.exactInteger(d) { try c.encode(i) } else { try c.encode(d) }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let elements):
            var c = encoder.unkeyedContainer()
            for element in elements { try c.encode(element) }
        case .object(let members):
            var c = encoder.container(keyedBy: MemberKey.self)
            for member in members { try c.encode(member.value, forKey: MemberKey(stringValue: member.key)) }
        }
    }

    /// The integer a number holds exactly (`12`, not `12.0`), or nil.
    static func exactInteger(_ d: Double) -> Int? {
        guard d.isFinite, d == d.rounded(), abs(d) < 9_007_199_254_740_992 else { return nil }
        return Int(d)
    }

    /// A number as JSON writes it: integers without a fraction, others in Swift's shortest form.
    package static func numberText(_ d: Double) -> String {
        if let i = exactInteger(d) { return String(i) }
        return d.isFinite ? "\(d)" : "null"
    }

    /// Appends this value as compact JSON text, members in their order.
    package func appendJSON(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let d): out.append(contentsOf: JSONValue.numberText(d).utf8)
        case .string(let s): JSONText.appendQuoted(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// This value as compact JSON text.
    package var jsonText: String {
        var out: [UInt8] = []
        appendJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
                     ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    @usableFromInline package typealias Key = String
    @usableFromInline package typealias Value = JSONValue
    @usableFromInline package typealias ArrayLiteralElement = JSONValue

    @usableFromInline package init(stringLiteral value: String) { self = .string(value) }
    @usableFromInline package init(booleanLiteral value: Bool) { self = .bool(value) }
    @usableFromInline package init(integerLiteral value: Int) { self = .number(Double(value)) }
    @usableFromInline package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    @usableFromInline
    package init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map { (key: $0.0, value: $0.1) }) }

    /// A string, or `null` for nil.
    package init(_ text: String?) { self = text.map(JSONValue.string) ?? .null }
}

extension HTTPResponse {
    /// A JSON body from a dynamic value, members in their order.
    package static func json(_ status: HTTPStatus = .ok, _ value: JSONValue) -> HTTPResponse {
        var out: [UInt8] = []
        value.appendJSON(to: &out)
        return json(status, bytes: out)
    }
}
