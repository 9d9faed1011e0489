import EmulationKit

/// What the OpenAPI document says about each HTTP route, keyed `METHOD /path/{param}`
/// (docs/control-plane.md): the admin table's operations (`AdminRoute`) and each documented system's.
extension OAS {
    package static func operations(_ systems: SystemCatalog, admin: [String: Object]) -> [String: Object] {
        var ops = admin
        for case let system as OpenAPIDocumented.Type in systems.types {
            ops.merge(system.openAPIOperations) { first, _ in first }
        }
        return ops
    }

    /// A state-changing admin operation says so in its 403; one a client may send without a JSON
    /// body declares the `X-Mock-Admin` header it then needs: required without a body, optional
    /// beside an optional body (a JSON body stands for it).
    package static func markStateChanging(_ op: inout Object) {
        if var responses = op["responses"], responses["403"] != nil {
            responses.set("403", adminWriteForbidden)
            op.set("responses", responses)
        }
        if op["requestBody"]?["required"] != .bool(true) {
            var parameters: [Object] = []
            if case .array(let given)? = op["parameters"] { parameters = given }
            op.set("parameters", .array(parameters + [adminMarker(required: op["requestBody"] == nil)]))
        }
    }
}
