import EmulationKit

extension PinLogin: OpenAPIDocumented {
    package static var openAPIOperations: [String: OAS.Object] { OAS.pinOperations }
    package static var openAPISchemas: OAS.Object { OAS.pinSchemas }
}

extension OAS {
    fileprivate static var pinOperations: [String: Object] {
        let error = json(ref("PinError"))
        return [
            "POST /pin/login": [
                "tags": ["pin"], "summary": "Sign in with the PIN",
                "requestBody": body(object(["pin": string]), [jsonType]),
                "responses": ["200": response("Signed in.", json(ref("PinToken"))),
                              "400": response("Malformed body.", error), "401": response("Wrong PIN.", error)],
            ],
            "GET /pin/me": [
                "tags": ["pin"], "summary": "The signed-in name", "security": [["bearer": []]],
                "responses": ["200": response("The name.", json(object(["name": string]))),
                              "401": response("No valid token.", error)],
            ],
        ]
    }

    fileprivate static var pinSchemas: Object {
        ["PinToken": object(["token": string]), "PinError": object(["error": string])]
    }
}
