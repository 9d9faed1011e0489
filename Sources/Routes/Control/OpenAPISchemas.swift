/// Building blocks of the OpenAPI document: schemas, bodies and responses (OpenAPI 3.1 JSON).
enum OAS {
    typealias Object = [String: Any]

    static func ref(_ name: String) -> Object { ["$ref": "#/components/schemas/\(name)"] }
    static var string: Object { ["type": "string"] }
    static var integer: Object { ["type": "integer"] }
    static var boolean: Object { ["type": "boolean"] }
    static var number: Object { ["type": "number"] }
    static var nullableString: Object { ["type": ["string", "null"]] }
    static var anyValue: Object { [:] }

    static func object(_ properties: [String: Object], required: [String]? = nil) -> Object {
        ["type": "object", "properties": properties, "required": required ?? properties.keys.sorted()]
    }
    static func array(_ items: Object) -> Object { ["type": "array", "items": items] }

    static func json(_ schema: Object) -> Object { ["application/json": ["schema": schema]] }
    static var text: Object { ["text/plain": ["schema": string]] }

    static func response(_ description: String, _ content: Object? = nil, headers: Object? = nil) -> Object {
        var r: Object = ["description": description]
        if let content { r["content"] = content }
        if let headers { r["headers"] = headers }
        return r
    }

    /// A request body offered in several encodings with one field schema.
    static func body(_ schema: Object, _ mediaTypes: [String], required: Bool = true, description: String? = nil) -> Object {
        var content: Object = [:]
        for type in mediaTypes { content[type] = ["schema": schema] }
        var b: Object = ["content": content, "required": required]
        if let description { b["description"] = description }
        return b
    }

    static func query(_ name: String, _ description: String, schema: Object = string, required: Bool = false) -> Object {
        ["name": name, "in": "query", "required": required, "description": description, "schema": schema]
    }
    static func path(_ name: String, _ description: String, schema: Object = string) -> Object {
        ["name": name, "in": "path", "required": true, "description": description, "schema": schema]
    }

    static let form = "application/x-www-form-urlencoded"
    static let multipart = "multipart/form-data"
    static let jsonType = "application/json"

    /// Every admin route may answer 403 to a client that is not allowed in.
    static var adminForbidden: Object { response("Not a loopback client, or a wrong X-Mock-Admin-Token.", json(ref("AdminError"))) }
    static func adminBadRequest(_ what: String) -> Object { response(what, json(ref("AdminError"))) }
}
