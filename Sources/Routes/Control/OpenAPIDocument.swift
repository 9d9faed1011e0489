import HTTPServer

/// `GET /__mock/openapi.json` (API.md §6.2): the paths are the router's own routes, described by
/// `OAS.operations`; WebSocket endpoints are described in the text.
public enum OpenAPIDocument {
    /// `:name` segments as OpenAPI's `{name}`.
    static func openAPIPath(_ pattern: String) -> String {
        "/" + pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    /// The document for a route table.
    public static func document(routes: [(method: HTTPMethod?, pattern: String)]) -> [String: Any] {
        let operations = OAS.operations
        var paths: [String: [String: Any]] = [:]
        var sockets: [String] = []
        for route in routes {
            let path = openAPIPath(route.pattern)
            guard let method = route.method else { sockets.append(path); continue }
            let key = "\(method.rawValue) \(path)"
            paths[path, default: [:]][method.rawValue.lowercased()] = operations[key]
                ?? ["summary": "Undocumented", "responses": ["default": ["description": "See the README."]]]
        }
        let description = """
            Every HTTP endpoint of the five emulated systems and of the admin API (/__mock/*), as the \
            mock answers them (API.md revision 2). Errors keep each system's own shape; a rejected \
            request a client could fix carries an X-Mock-Hint header.

            WebSocket endpoints (not expressible in OpenAPI): \(sockets.sorted().joined(separator: ", ")). \
            /customer-gateway/customer speaks JSON messages {"type", "sequence_id", "data"}: LOGIN_CUSTOMER \
            with data {"email", "password"} is answered CUSTOMER_API_TOKEN, CUSTOMER_ERROR or \
            CUSTOMER_VALIDATION_ERROR. /__mock/echo returns every message. /__mock/events pushes \
            {"kind", "at", "data"} events (request, sms, email, fault, reset, clock).
            """
        return [
            "openapi": "3.1.0",
            "info": ["title": "mock-server", "version": "2", "description": description] as [String: Any],
            "tags": ["rows", "skyzone", "musbooking", "rsschool", "admin"].map { ["name": $0] },
            "paths": paths,
            "components": [
                "schemas": OAS.schemas,
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer"],
                ] as [String: Any],
            ] as [String: Any],
        ]
    }
}
