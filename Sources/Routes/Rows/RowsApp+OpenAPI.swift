import HTTPServer
import EmulationKit

/// What the OpenAPI document says about the rows app's routes and bodies (docs/control-plane.md, "OpenAPI").
extension RowsApp: OpenAPIDocumented {
    package static var openAPIOperations: [String: OAS.Object] { OAS.rowsOperations }
    package static var openAPISchemas: OAS.Object { OAS.rowsSchemas }
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
            "description": "Header authorization carries the raw token (no Bearer). Past the last page: 200 [].",
            // Not an OpenAPI security requirement: those promise 401, and the original answers 403.
            "parameters": [path("page", "Page number from 1."),
                           ["name": "authorization", "in": "header", "required": false, "schema": string,
                            "description": "The raw token from /auth/login (required by the server: 403 without it)."] as Object],
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
