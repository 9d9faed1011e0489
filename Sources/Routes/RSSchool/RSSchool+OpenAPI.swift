import HTTPServer
import EmulationKit

/// What the OpenAPI document says about RSSchool's routes and bodies (docs/control-plane.md, "OpenAPI").
extension RSSchool: OpenAPIDocumented {
    package static var openAPIOperations: [String: OAS.Object] { OAS.rsschoolOperations }
    package static var openAPISchemas: OAS.Object { OAS.rsschoolSchemas }
}

extension OAS {
    fileprivate static var rsschoolOperations: [String: Object] {
        var ops: [String: Object] = [:]
        let rsError = json(ref("RSSchoolError"))
        ops["POST /rsschool/authorize"] = [
            "tags": ["rsschool"], "summary": "Check login and password",
            "requestBody": body(object(["login": string, "password": string]), [jsonType]),
            "responses": ["200": response("Right.", json(ref("RSSchoolSuccess"))),
                          "401": response("Names the wrong field(s).", json(ref("RSSchoolWrong"))),
                          "400": response("Malformed body.", rsError)],
        ]
        ops["POST /rsschool/secure"] = [
            "tags": ["rsschool"], "summary": "Check the secure sequence",
            "requestBody": body(object(["sequence": string]), [jsonType]),
            "responses": ["200": response("Right: the app's alert.", json(ref("RSSchoolSecure"))),
                          "401": response("A wrong sequence of three digits 1-3.", json(ref("RSSchoolSecureError"))),
                          "400": response("Anything else.", rsError)],
        ]
        return ops
    }

    fileprivate static var rsschoolSchemas: Object {
        [
            "RSSchoolSuccess": object(["state": ["const": "success"]]),
            "RSSchoolWrong": object(["wrong": array(["type": "string", "enum": ["login", "password"]])]),
            "RSSchoolSecure": object(["state": ["const": "success"], "title": string, "message": string]),
            "RSSchoolSecureError": object(["state": ["const": "error"]]),
            "RSSchoolError": object(["error": string]),
        ]
    }
}
