import HTTPServer
import EmulationKit

/// `GET /__mock/openapi.json` (docs/control-plane.md, "OpenAPI"): the paths are the router's own routes, described by
/// the admin table's operations (`AdminRoute`) and the systems'; WebSocket endpoints are described in the text.
package enum OpenAPIDocument {
    /// `:name` segments as OpenAPI's `{name}`.
    package static func openAPIPath(_ pattern: String) -> String {
        "/" + pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    /// The document for a route table.
    package static func document(routes: [(method: HTTPMethod?, pattern: String)], admin: [String: OAS.Object], systems: SystemCatalog,
                                 maxWaitMs: Int = Waiters.defaultMaxWaitMs) -> JSONValue {
        let operations = OAS.operations(systems, admin: admin), schemas = OAS.schemas(systems)
        var paths: [String: [String: JSONValue]] = [:]
        var sockets: [String] = []
        for route in routes {
            let path = openAPIPath(route.pattern)
            guard let method = route.method else { sockets.append(path); continue }
            let key = "\(method.rawValue) \(path)"
            let operation: JSONValue = operations[key] ?? ["summary": "Undocumented", "responses": ["default": ["description": "See the README."]]]
            paths[path, default: [:]][method.rawValue.lowercased()] = OpenAPIDocument.completed(operation, method: method.rawValue, path: path,
                                                                                              maxWaitMs: maxWaitMs, schemas: schemas)
        }
        var tags: [String] = [], notes = ""
        var securitySchemes: [String: JSONValue] = ["bearer": ["type": "http", "scheme": "bearer"]]
        for system in systems.types {
            guard let documented = system as? OpenAPIDocumented.Type else { continue }
            if !documented.openAPIOperations.isEmpty { tags.append(system.name) }
            if let note = documented.openAPIWebSocketNote { notes += note + " " }
            securitySchemes.merge(documented.openAPISecuritySchemes) { first, _ in first }
        }
        tags.append("admin")
        tags.append("stubs")
        let description = """
            Every HTTP endpoint of the \(count(systems.types.count)) emulated systems, of the admin API (/__mock/*) and of \
            WireMock's admin API over the stub mappings (/__admin/*), as the \
            mock answers them (docs/endpoints.md, docs/control-plane.md and docs/stubs.md). Errors keep each system's own shape; a rejected \
            request a client could fix carries an X-Mock-Hint header.

            WebSocket endpoints (not expressible in OpenAPI): \(sockets.sorted().joined(separator: ", ")). \
            \(notes)/__mock/echo returns every message. /__mock/events pushes \
            {"kind", "at", "data"} events (request, sms, email, fault, reset, clock, and each admin change: fault.added/removed/usedUp, account.created/deleted, instance.started/stopped, state.replaced, outbox.cleared, journal.cleared, stubs).
            """
        let document: JSONValue = [
            "openapi": "3.1.0",
            "info": ["title": "mock-server", "version": .string(MockServerVersion.current), "description": .string(description)],
            "tags": .array(tags.map { ["name": .string($0)] }),
            "paths": OAS.members(paths.mapValues(OAS.members)),
            "components": [
                "schemas": schemas,
                "securitySchemes": OAS.members(securitySchemes),
            ],
        ]
        return OAS.typingConstants(document).sortedByKey
    }

    /// The document's bytes: compact JSON, members sorted by key.
    package static func bytes(routes: [(method: HTTPMethod?, pattern: String)], admin: [String: OAS.Object], systems: SystemCatalog,
                              maxWaitMs: Int = Waiters.defaultMaxWaitMs) -> [UInt8] {
        var out: [UInt8] = []
        document(routes: routes, admin: admin, systems: systems, maxWaitMs: maxWaitMs).appendJSON(to: &out)
        return out
    }

    /// What code generators and API clients need of every operation (revision 3): an
    /// `operationId` (from the method and path: `postApiUsersSms`, `deleteMockFaultsById`), an
    /// example for every request body (its schema's own, else one built from the schema), and
    /// the wait bound this server grants.
    package static func completed(_ operation: JSONValue, method: String, path: String, maxWaitMs: Int, schemas: OAS.Object) -> JSONValue {
        var op = operation
        if op["operationId"] == nil { op.set("operationId", .string(operationId(method: method, path: path))) }
        if var body = op["requestBody"], case .object(var content)? = body["content"] {
            for i in content.indices where content[i].value["example"] == nil && content[i].value["examples"] == nil {
                content[i].value.set("example", example(content[i].value["schema"] ?? [:], depth: 0, schemas: schemas))
            }
            body.set("content", .object(content))
            op.set("requestBody", body)
        }
        if case .array(let parameters)? = op["parameters"] {
            op.set("parameters", .array(parameters.map { parameter in
                guard parameter["name"]?.string == "waitMs", var schema = parameter["schema"] else { return parameter }
                schema.set("maximum", .number(Double(maxWaitMs)))
                var changed = parameter
                changed.set("schema", schema)
                return changed
            }))
        }
        return op
    }

    /// `post /api/users/{id}/sms` → `postApiUsersByIdSms`; `/__mock/…` reads as `Mock…`.
    package static func operationId(method: String, path: String) -> String {
        var id = method.lowercased()
        for segment in path.split(separator: "/") {
            var word = String(segment)
            if word.hasPrefix("{") { word = "By" + word.dropFirst().dropLast().prefix(1).uppercased() + word.dropFirst(2).dropLast() }
            for part in word.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) { id += part.prefix(1).uppercased() + part.dropFirst() }
        }
        return id
    }

    /// A value the schema accepts: its `example`, `const` or first `enum` value, else one built
    /// from its type (objects with their required properties, or every one when none is required).
    package static func example(_ schema: JSONValue, depth: Int, schemas: OAS.Object) -> JSONValue {
        if let example = schema["example"] { return example }
        if let constant = schema["const"] { return constant }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        if let ref = schema["$ref"]?.string, depth < 8, let resolved = schemas[String(ref.split(separator: "/").last ?? "")] {
            return example(resolved, depth: depth + 1, schemas: schemas)
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            if case .array(let options)? = schema[key], let first = options.first { return example(first, depth: depth + 1, schemas: schemas) }
        }
        var type = schema["type"]?.string ?? (schema["properties"] != nil ? "object" : "string")
        if case .array(let types)? = schema["type"] { type = types.compactMap(\.string).first { $0 != "null" } ?? "string" }
        switch type {
        case "object":
            guard case .object(let properties)? = schema["properties"], depth < 8 else { return [:] }
            var names = properties.map(\.key)
            if case .array(let required)? = schema["required"], !required.isEmpty { names = required.compactMap(\.string) }
            return .object(names.sorted().map { name in
                (key: name, value: example(properties.first { $0.key == name }?.value ?? [:], depth: depth + 1, schemas: schemas))
            })
        case "array": return depth < 8 ? .array([example(schema["items"] ?? [:], depth: depth + 1, schemas: schemas)]) : []
        case "integer", "number":
            if case .number(let minimum)? = schema["minimum"] { return .number(minimum) }
            return 1
        case "boolean": return true
        default:
            var length = 1
            if case .number(let minimum)? = schema["minLength"] { length = max(1, Int(minimum)) }
            return .string(String(repeating: "x", count: length))
        }
    }

    /// A small count in words, as the description reads ("five emulated systems").
    private static func count(_ n: Int) -> String {
        let words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        return n < words.count ? words[n] : String(n)
    }
}
