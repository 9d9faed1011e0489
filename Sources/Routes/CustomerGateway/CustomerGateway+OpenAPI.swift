import EmulationKit

/// The gateway in the OpenAPI document: no HTTP operation, its message protocol in the description.
extension CustomerGateway: OpenAPIDocumented {
    package static var openAPIOperations: [String: OAS.Object] { [:] }
    package static var openAPISchemas: OAS.Object { [:] }
    package static var openAPIWebSocketNote: String? {
        """
        \(path) speaks JSON messages {"type", "sequence_id", "data"}: LOGIN_CUSTOMER \
        with data {"email", "password"} is answered CUSTOMER_API_TOKEN, CUSTOMER_ERROR or \
        CUSTOMER_VALIDATION_ERROR.
        """
    }
}
