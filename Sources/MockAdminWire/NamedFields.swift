/// Header fields by name, written in the order of their names whatever the encoder (a
/// substituted answer's headers, a journal entry's request headers): the order the server sends
/// and lists them in.
struct NamedFields: Codable {
    var fields: [String: String]

    init(fields: [String: String]) { self.fields = fields }

    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws { fields = try [String: String](from: decoder) }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Name.self)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { try c.encode(value, forKey: Name(stringValue: name)) }
    }
}
