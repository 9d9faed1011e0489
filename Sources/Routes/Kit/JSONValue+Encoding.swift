import HTTPServer

extension JSONValue {
    /// The value as it encodes itself, an object's members in the order its `encode(to:)` writes
    /// them (JSONEncoder would sort them or not, by platform): the admin listings keep the order
    /// they always had while the wire types (MockAdminWire) say what the members are.
    package init<T: Encodable>(encoding value: T) throws {
        let root = JSONNode()
        try value.encode(to: JSONNodeEncoder(node: root, codingPath: []))
        self = root.value
    }
}

/// A value being encoded: a leaf, or an object or array whose members are still being written.
private final class JSONNode {
    enum Kind { case leaf(JSONValue), object([(key: String, node: JSONNode)]), array([JSONNode]) }
    var kind: Kind = .leaf(.null)

    var value: JSONValue {
        switch kind {
        case .leaf(let value): return value
        case .object(let members): return .object(members.map { (key: $0.key, value: $0.node.value) })
        case .array(let elements): return .array(elements.map(\.value))
        }
    }

    /// The member `key` of this object (made one if it is not yet), added after the others.
    func member(_ key: String) -> JSONNode {
        if case .leaf = kind { kind = .object([]) }
        guard case .object(var members) = kind else { return JSONNode() }
        if let existing = members.first(where: { $0.key == key }) { return existing.node }
        let node = JSONNode()
        members.append((key: key, node: node))
        kind = .object(members)
        return node
    }

    /// A new last element of this array (made one if it is not yet).
    func element() -> JSONNode {
        if case .leaf = kind { kind = .array([]) }
        guard case .array(var elements) = kind else { return JSONNode() }
        let node = JSONNode()
        elements.append(node)
        kind = .array(elements)
        return node
    }

    var count: Int {
        if case .array(let elements) = kind { return elements.count }
        return 0
    }

    /// Encodes `value` into this node: a primitive as a leaf, anything else through its `encode(to:)`.
    func put<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: kind = .leaf(.string(text))
        case let flag as Bool: kind = .leaf(.bool(flag))
        case let number as Double: kind = .leaf(.number(number))
        case let number as Int: kind = .leaf(.number(Double(number)))
        default: try value.encode(to: JSONNodeEncoder(node: self, codingPath: codingPath))
        }
    }
}

private struct JSONNodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .leaf = node.kind { node.kind = .object([]) }
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .leaf = node.kind { node.kind = .array([]) }
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: JSONNode
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).kind = .leaf(.null) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.member(key.stringValue).put(value, codingPath: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            JSONNodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            JSONNodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { JSONNodeEncoder(node: node.member("super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            JSONNodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: JSONNode
        let codingPath: [any CodingKey]
        var count: Int { node.count }

        mutating func encodeNil() throws { node.element().kind = .leaf(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { try node.element().put(value, codingPath: codingPath) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            JSONNodeEncoder(node: node.element(), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            JSONNodeEncoder(node: node.element(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { JSONNodeEncoder(node: node.element(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: JSONNode
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.kind = .leaf(.null) }
        mutating func encode(_ value: Bool) throws { node.kind = .leaf(.bool(value)) }
        mutating func encode(_ value: String) throws { node.kind = .leaf(.string(value)) }
        mutating func encode(_ value: Double) throws { node.kind = .leaf(.number(value)) }
        mutating func encode(_ value: Float) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: Int) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: Int8) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: Int16) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: Int32) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: Int64) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: UInt) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: UInt8) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: UInt16) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: UInt32) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode(_ value: UInt64) throws { node.kind = .leaf(.number(Double(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws { try node.put(value, codingPath: codingPath) }
    }
}
