/// A system that documents its HTTP routes (keyed `METHOD /path/{param}`) and its bodies'
/// schemas for the OpenAPI document, in its own folder.
package protocol OpenAPIDocumented {
    static var openAPIOperations: [String: OAS.Object] { get }
    static var openAPISchemas: OAS.Object { get }
    /// What its WebSocket endpoint speaks, for the document's description (OpenAPI cannot say it).
    static var openAPIWebSocketNote: String? { get }
    /// Security schemes its operations name (`components.securitySchemes`), by name.
    static var openAPISecuritySchemes: [String: OAS.Object] { get }
}

extension OpenAPIDocumented {
    package static var openAPIWebSocketNote: String? { nil }
    package static var openAPISecuritySchemes: [String: OAS.Object] { [:] }
}
