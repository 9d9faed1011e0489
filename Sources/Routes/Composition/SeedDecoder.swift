import HTTPServer
import EmulationKit

/// Decodes seed JSON (parsed into a `JSONValue`) and remembers every key each object was asked
/// for, so keys nobody asked for can be refused afterwards: Foundation's decoder skips them
/// silently, and a misspelt key in a seed would otherwise just not take effect.
final class SeedDecoding {
    /// Where the sections a seed leaves out come from (nil: every section is required).
    let defaults: Seed?
    /// Keys asked for, by the path of the object they were asked of (`rows.accounts[0]`).
    private(set) var asked: [String: Set<String>] = [:]
    /// Paths decoded whole as free JSON (their keys are data, not fields).
    private(set) var opaque: Set<String> = []

    /// The systems a seed has sections for (the decoder's `userInfo[.systemCatalog]`).
    let systems: SystemCatalog

    init(defaults: Seed?, systems: SystemCatalog) {
        self.defaults = defaults
        self.systems = systems
    }

    func ask(_ key: String, at path: String) { asked[path, default: []].insert(key) }
    func markOpaque(_ path: String) { opaque.insert(path) }

    /// The first key in `value` that no decoder asked for, with the keys that were asked at its
    /// object; nil when every key was read.
    func firstUnknownKey(in value: JSONValue, path: String = "") -> (path: String, known: [String])? {
        if opaque.contains(path) { return nil }
        switch value {
        case .object(let members):
            let known = asked[path] ?? []
            for (key, member) in members {
                let memberPath = SeedDecoding.join(path, key)
                guard known.contains(key) else { return (memberPath, known.sorted()) }
                if let found = firstUnknownKey(in: member, path: memberPath) { return found }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstUnknownKey(in: element, path: path + "[\(index)]") { return found }
            }
        default:
            break
        }
        return nil
    }

    /// For a key missing at `codingPath`: a key of that object nobody asked for that is the
    /// missing one misspelt (at most two letters off, case aside: `pasword` beside a missing
    /// `password`), with the keys the object has, the missing one included; nil when there is
    /// none (the key is simply missing; keys after it were not asked yet, so only a near spelling counts).
    func unknownKey(besideMissing missing: String, at codingPath: [any CodingKey], in root: JSONValue) -> (path: String, known: [String])? {
        var value = root
        for key in codingPath {
            if let index = key.intValue {
                guard case .array(let items) = value, items.indices.contains(index) else { return nil }
                value = items[index]
            } else {
                guard let member = value[key.stringValue] else { return nil }
                value = member
            }
        }
        guard case .object(let members) = value else { return nil }
        let path = SeedDecoding.text(codingPath)
        let known = (asked[path] ?? []).union([missing])
        guard let stranger = members.first(where: { !known.contains($0.key) && SeedDecoding.isNear($0.key, missing) }) else { return nil }
        return (SeedDecoding.join(path, stranger.key), known.sorted())
    }

    /// Whether `a` is `b` with at most two letters inserted, removed or changed, case aside
    /// (Levenshtein distance; keys are short).
    static func isNear(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        guard abs(x.count - y.count) <= 2, x.count <= 64, y.count <= 64 else { return false }
        guard !x.isEmpty, !y.isEmpty else { return max(x.count, y.count) <= 2 }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count] <= 2
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The path as error messages write it: `rows.accounts[0].email`.
    static func text(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue { out += "[\(index)]" } else { out = join(out, key.stringValue) }
        }
        return out
    }
}

/// A `Decoder` over one `JSONValue` that reports what it is asked to `SeedDecoding`.
struct SeedValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let ledger: SeedDecoding
    var userInfo: [CodingUserInfoKey: Any] { CodingUserInfoKey.systemCatalog.map { [$0: ledger.systems] } ?? [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an object"))
        }
        var byKey: [String: JSONValue] = [:]
        // A key given twice: the last one wins, as Foundation's decoder keeps it.
        for (key, member) in members { byKey[key] = member }
        return KeyedDecodingContainer(SeedKeyedContainer<Key>(members: byKey, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch([JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an array"))
        }
        return SeedUnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SeedSingleValue(decoder: self) }

    func child(_ value: JSONValue, key: any CodingKey) -> SeedValueDecoder {
        SeedValueDecoder(value: value, codingPath: codingPath + [key], ledger: ledger)
    }

    /// A value of `type`: free JSON is taken whole (its keys are data), anything else decodes itself.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == JSONValue.self, let whole = value as? T {
            ledger.markOpaque(SeedDecoding.text(codingPath))
            return whole
        }
        return try T(from: self)
    }

    func primitive<T>(_ type: T.Type, _ convert: (JSONValue) -> T?) throws -> T {
        if value == .null {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "found null"))
        }
        guard let result = convert(value) else {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(type)"))
        }
        return result
    }

    func integer<T: BinaryInteger>(_ type: T.Type) throws -> T {
        try primitive(type) { if case .number(let n) = $0 { return T(exactly: n) } else { return nil } }
    }

    func floating<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        try primitive(type) { if case .number(let n) = $0 { return T(n) } else { return nil } }
    }

    func string() throws -> String { try primitive(String.self) { $0.string } }
    func bool() throws -> Bool { try primitive(Bool.self) { if case .bool(let b) = $0 { return b } else { return nil } } }
}

private struct SeedKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let decoder: SeedValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    private var path: String { SeedDecoding.text(codingPath) }

    func contains(_ key: Key) -> Bool {
        decoder.ledger.ask(key.stringValue, at: path)
        return members[key.stringValue] != nil
    }

    private func member(_ key: Key) throws -> SeedValueDecoder {
        decoder.ledger.ask(key.stringValue, at: path)
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing key \"\(key.stringValue)\""))
        }
        return decoder.child(value, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).value == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).floating(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).floating(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try member(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
}

private struct SeedUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: SeedValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }
    var currentIndex = 0

    init(elements: [JSONValue], decoder: SeedValueDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    private mutating func next() throws -> SeedValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], key: SeedIndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().floating(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().floating(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SeedSingleValue: SingleValueDecodingContainer {
    let decoder: SeedValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.floating(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.floating(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}

private struct SeedIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
