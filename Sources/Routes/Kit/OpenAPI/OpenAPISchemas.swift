import HTTPServer

/// Building blocks of the OpenAPI document: schemas, bodies and responses (OpenAPI 3.1 JSON).
enum OAS {
    typealias Object = JSONValue

    static func ref(_ name: String) -> Object { ["$ref": .string("#/components/schemas/\(name)")] }
    static var string: Object { ["type": "string"] }
    static var integer: Object { ["type": "integer"] }
    static var boolean: Object { ["type": "boolean"] }
    static var number: Object { ["type": "number"] }
    static var nullableString: Object { ["type": ["string", "null"]] }
    static var anyValue: Object { [:] }

    static func object(_ properties: [String: Object], required: [String]? = nil) -> Object {
        ["type": "object", "properties": members(properties), "required": strings(required ?? properties.keys.sorted())]
    }

    /// A Swift dictionary as an object (the document is written with sorted keys).
    static func members(_ dictionary: [String: Object]) -> Object { .object(dictionary.map { (key: $0.key, value: $0.value) }) }
    static func strings(_ texts: [String]) -> Object { .array(texts.map(JSONValue.string)) }
    static func array(_ items: Object) -> Object { ["type": "array", "items": items] }

    static func json(_ schema: Object) -> Object { ["application/json": ["schema": schema]] }
    static var text: Object { ["text/plain": ["schema": string]] }

    static func response(_ description: String, _ content: Object? = nil, headers: Object? = nil) -> Object {
        var r: Object = ["description": .string(description)]
        if let content { r.set("content", content) }
        if let headers { r.set("headers", headers) }
        return r
    }

    /// A request body offered in several encodings with one field schema.
    static func body(_ schema: Object, _ mediaTypes: [String], required: Bool = true, description: String? = nil) -> Object {
        var content: Object = [:]
        for type in mediaTypes { content.set(type, ["schema": schema]) }
        var b: Object = ["content": content, "required": .bool(required)]
        if let description { b.set("description", .string(description)) }
        return b
    }

    static func query(_ name: String, _ description: String, schema: Object = string, required: Bool = false) -> Object {
        ["name": .string(name), "in": "query", "required": .bool(required), "description": .string(description), "schema": schema]
    }
    static func path(_ name: String, _ description: String, schema: Object = string) -> Object {
        ["name": .string(name), "in": "path", "required": true, "description": .string(description), "schema": schema]
    }

    static let form = "application/x-www-form-urlencoded"
    static let multipart = "multipart/form-data"
    static let jsonType = "application/json"

    /// Every admin route may answer 403 to a client that is not allowed in.
    static var adminForbidden: Object { response("Not a loopback client, or a wrong X-Mock-Admin-Token.", json(ref("AdminError"))) }
    static func adminBadRequest(_ what: String) -> Object { response(what, json(ref("AdminError"))) }
}
