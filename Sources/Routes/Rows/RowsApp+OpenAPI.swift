import HTTPServer
import EmulationKit

/// What the OpenAPI document says about the rows app's routes and bodies (docs/control-plane.md, "OpenAPI").
extension RowsApp: OpenAPIDocumented {
    package static var openAPIOperations: [String: OAS.Object] { OAS.rowsOperations }
    package static var openAPISchemas: OAS.Object { OAS.rowsSchemas }
    /// The raw token in `authorization` (no `Bearer`): an `apiKey`, which generators take as
    /// security; a header parameter of that name they would drop.
    package static var openAPISecuritySchemes: [String: OAS.Object] {
        ["rowsToken": ["type": "apiKey", "in": "header", "name": "authorization",
                       "description": "The rows app's raw token from POST /auth/login, without a Bearer prefix."]]
    }
}

extension OAS {
    fileprivate static var rowsOperations: [String: Object] {
        var ops: [String: Object] = [:]
        let vapor = json(ref("VaporError"))
        let credentials = object(["email": string, "password": string])
        ops["POST /auth/login"] = [
            "tags": ["rows"], "summary": "Sign in (rows app)",
            "description": "Decoded by Content-Type as Vapor does: JSON, form or multipart. No Content-Type or another type: 415. A JSON text under a form type finds no fields: 400 with a hint.",
            "requestBody": body(credentials, [jsonType, form, multipart]),
            "responses": ["200": response("Signed in.", json(ref("RowsToken"))),
                          "400": response("Malformed body or a missing field.", vapor),
                          "401": response("Invalid Credentials.", vapor),
                          "415": response("No or an unsupported Content-Type.", vapor)],
        ]
        ops["GET /rows/{page}"] = [
            "tags": ["rows"], "summary": "One page of 20 rows",
            "description": "Header authorization carries the raw token from /auth/login (no Bearer): the rowsToken security scheme. Missing or wrong: 403, as the original answers. Past the last page: 200 [].",
            // A security scheme, not a header parameter: OpenAPI tells generators to ignore a
            // parameter named Authorization, so a generated client would never send it.
            "security": [["rowsToken": []]],
            "parameters": [path("page", "Page number from 1.")],
            "responses": ["200": response("The page.", json(array(ref("Row")))),
                          "400": response("The page is not a positive integer.", vapor),
                          "403": response("Missing, wrong or Bearer-prefixed token.", vapor),
                          "404": response("Not Found.", vapor)],
        ]
        return ops
    }

    fileprivate static var rowsSchemas: Object {
        [
            "RowsToken": object(["token": string]),
            "Row": object(["id": integer, "text": string]),
        ]
    }
}
