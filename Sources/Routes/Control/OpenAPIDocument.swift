import HTTPServer

/// `GET /__mock/openapi.json` (API.md §6.2): the paths are the router's own routes, described by
/// `OAS.operations`; WebSocket endpoints are described in the text.
public enum OpenAPIDocument {
    /// `:name` segments as OpenAPI's `{name}`.
    static func openAPIPath(_ pattern: String) -> String {
        "/" + pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    /// The document for a route table.
    public static func document(routes: [(method: HTTPMethod?, pattern: String)]) -> JSONValue {
        let operations = OAS.operations
        var paths: [String: [String: JSONValue]] = [:]
        var sockets: [String] = []
        for route in routes {
            let path = openAPIPath(route.pattern)
            guard let method = route.method else { sockets.append(path); continue }
            let key = "\(method.rawValue) \(path)"
            paths[path, default: [:]][method.rawValue.lowercased()] = operations[key]
                ?? ["summary": "Undocumented", "responses": ["default": ["description": "See the README."]]]
        }
        var tags: [String] = [], notes = ""
        for system in SystemRegistry.types {
            guard let documented = system as? OpenAPIDocumented.Type else { continue }
            if !documented.openAPIOperations.isEmpty { tags.append(system.name) }
            if let note = documented.openAPIWebSocketNote { notes += note + " " }
        }
        tags.append("admin")
        let description = """
            Every HTTP endpoint of the \(count(SystemRegistry.types.count)) emulated systems and of the admin API (/__mock/*), as the \
            mock answers them (API.md revision 2). Errors keep each system's own shape; a rejected \
            request a client could fix carries an X-Mock-Hint header.

            WebSocket endpoints (not expressible in OpenAPI): \(sockets.sorted().joined(separator: ", ")). \
            \(notes)/__mock/echo returns every message. /__mock/events pushes \
            {"kind", "at", "data"} events (request, sms, email, fault, reset, clock).
            """
        let document: JSONValue = [
            "openapi": "3.1.0",
            "info": ["title": "mock-server", "version": "2", "description": .string(description)],
            "tags": .array(tags.map { ["name": .string($0)] }),
            "paths": OAS.members(paths.mapValues(OAS.members)),
            "components": [
                "schemas": OAS.schemas,
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer"],
                ],
            ],
        ]
        return document.sortedByKey
    }

    /// The document's bytes: compact JSON, members sorted by key.
    public static func bytes(routes: [(method: HTTPMethod?, pattern: String)]) -> [UInt8] {
        var out: [UInt8] = []
        document(routes: routes).appendJSON(to: &out)
        return out
    }

    /// A small count in words, as the description reads ("five emulated systems").
    private static func count(_ n: Int) -> String {
        let words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        return n < words.count ? words[n] : String(n)
    }
}
