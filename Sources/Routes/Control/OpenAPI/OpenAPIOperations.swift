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

    /// A state-changing admin operation says in its 403 what the guard refuses (a browser's
    /// cross-site write); it needs no header of its own.
    static func markStateChanging(_ op: inout Object) {
        if var responses = op["responses"], responses["403"] != nil {
            responses.set("403", adminWriteForbidden)
            op.set("responses", responses)
        }
    }
}
