import HTTPServer

/// What the control plane and the systems need of the one JSON model besides parsing and writing.
extension JSONValue {
    /// A whole number.
    package init(_ int: Int) { self = .number(Double(int)) }

    /// An object's members by key (the last of a repeated key, as JSONSerialization kept), else nil.
    package var members: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Sets (or adds) an object's member; on anything else, nothing.
    package mutating func set(_ key: String, _ value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let i = members.lastIndex(where: { $0.key == key }) { members[i].value = value } else { members.append((key: key, value: value)) }
        self = .object(members)
    }

    /// The same value with every object's members sorted by key, as documents are written.
    package var sortedByKey: JSONValue {
        switch self {
        case .array(let elements): return .array(elements.map(\.sortedByKey))
        case .object(let members):
            return .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.sortedByKey) })
        default: return self
        }
    }
}

extension HTTPResponse {
    /// A control-plane answer: the value written with its members sorted by key, as before.
    package static func json(_ status: HTTPStatus = .ok, sorted value: JSONValue) -> HTTPResponse {
        .json(status, value.sortedByKey)
    }
}
