import HTTPServer

/// Building blocks of the OpenAPI document: schemas, bodies and responses (OpenAPI 3.1 JSON).
package enum OAS {
    package typealias Object = JSONValue

    package static func ref(_ name: String) -> Object { ["$ref": .string("#/components/schemas/\(name)")] }
    package static var string: Object { ["type": "string"] }
    package static var integer: Object { ["type": "integer"] }
    package static var boolean: Object { ["type": "boolean"] }
    package static var number: Object { ["type": "number"] }
    package static var nullableString: Object { ["type": ["string", "null"]] }

    package static func object(_ properties: [String: Object], required: [String]? = nil) -> Object {
        ["type": "object", "properties": members(properties), "required": strings(required ?? properties.keys.sorted())]
    }

    /// `schema` with `null` added to the `type` of each of its properties, and of theirs, all the
    /// way down: for admin bodies whose null members are read as absent (WireMock's Jackson).
    package static func nullable(_ schema: Object) -> Object {
        guard case .object(var fields) = schema else { return schema }
        if let i = fields.firstIndex(where: { $0.key == "properties" }) { fields[i].value = nullableMembers(fields[i].value) }
        return .object(fields)
    }

    /// Properties (name → schema), each one's `type` admitting null, recursively.
    package static func nullableMembers(_ members: Object) -> Object {
        guard case .object(let list) = members else { return members }
        return .object(list.map { member in
            guard case .object(var fields) = nullable(member.value) else { return member }
            if let i = fields.firstIndex(where: { $0.key == "type" }), case .string(let type) = fields[i].value {
                fields[i].value = .array([.string(type), .string("null")])
            }
            return (key: member.key, value: .object(fields))
        })
    }

    /// A Swift dictionary as an object (the document is written with sorted keys).
    package static func members(_ dictionary: [String: Object]) -> Object { .object(dictionary.map { (key: $0.key, value: $0.value) }) }
    package static func strings(_ texts: [String]) -> Object { .array(texts.map(JSONValue.string)) }
    package static func array(_ items: Object) -> Object { ["type": "array", "items": items] }

    package static func json(_ schema: Object) -> Object { ["application/json": ["schema": schema]] }
    package static var text: Object { ["text/plain": ["schema": string]] }

    package static func response(_ description: String, _ content: Object? = nil, headers: Object? = nil) -> Object {
        var r: Object = ["description": .string(description)]
        if let content { r.set("content", content) }
        if let headers { r.set("headers", headers) }
        return r
    }

    /// A request body offered in several encodings with one field schema.
    package static func body(_ schema: Object, _ mediaTypes: [String], required: Bool = true, description: String? = nil) -> Object {
        var content: Object = [:]
        for type in mediaTypes { content.set(type, ["schema": schema]) }
        var b: Object = ["content": content, "required": .bool(required)]
        if let description { b.set("description", .string(description)) }
        return b
    }

    package static func query(_ name: String, _ description: String, schema: Object = string, required: Bool = false) -> Object {
        ["name": .string(name), "in": "query", "required": .bool(required), "description": .string(description), "schema": schema]
    }
    package static func path(_ name: String, _ description: String, schema: Object = string) -> Object {
        ["name": .string(name), "in": "path", "required": true, "description": .string(description), "schema": schema]
    }

    package static let form = "application/x-www-form-urlencoded"
    package static let multipart = "multipart/form-data"
    package static let jsonType = "application/json"

    /// Every admin route may answer 403 to a client that is not allowed in.
    package static var adminForbidden: Object { response("Not a loopback client, or a wrong X-Mock-Admin-Token.", json(ref("AdminError"))) }

    /// The 403 of a state-changing admin route, which also refuses a browser's cross-site write.
    package static var adminWriteForbidden: Object {
        response("Not a loopback client, a wrong X-Mock-Admin-Token, or a browser's cross-site write (an Origin that is not this server's, Origin: null, or Sec-Fetch-Site: cross-site or same-site).",
                 json(ref("AdminError")))
    }

    /// Schemas with a `const` and no `type` get the constant's type, so generators type them
    /// (a `const` alone comes out untyped).
    package static func typingConstants(_ value: Object) -> Object {
        switch value {
        case .object(let members):
            var typed = Object.object(members.map { (key: $0.key, value: typingConstants($0.value)) })
            if let constant = typed["const"], typed["type"] == nil {
                switch constant {
                case .bool: typed.set("type", "boolean")
                case .string: typed.set("type", "string")
                case .number(let n): typed.set("type", n.rounded() == n ? "integer" : "number")
                default: break
                }
            }
            return typed
        case .array(let elements): return .array(elements.map(typingConstants))
        default: return value
        }
    }
    package static func adminBadRequest(_ what: String) -> Object { response(what, json(ref("AdminError"))) }
}
