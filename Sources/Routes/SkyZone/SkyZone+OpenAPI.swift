import HTTPServer
import EmulationKit

/// What the OpenAPI document says about SkyZone's routes and bodies (docs/control-plane.md, "OpenAPI").
extension SkyZone: OpenAPIDocumented {
    package static var openAPIOperations: [String: OAS.Object] { OAS.skyZoneOperations }
    package static var openAPISchemas: OAS.Object { OAS.skyZoneSchemas }
}

extension OAS {
    fileprivate static var skyZoneOperations: [String: Object] {
        var ops: [String: Object] = [:]
        let skyError = json(ref("SkyZoneError"))
        let skyBody = body(ref("SkyZoneCredentials"), [jsonType, form, "text/plain"],
                           description: "JSON whatever the Content-Type says (the original was an Apiary mock), or a form.")
        ops["POST /customer"] = [
            "tags": ["skyzone"], "summary": "Create an account (e-mail or social)", "requestBody": skyBody,
            "responses": ["200": response("The profile (also for an existing account with the same credentials).", json(ref("SkyZoneProfile"))),
                          "400": response("Missing fields, bad type, bad JSON.", skyError),
                          "409": response("The username exists with another password.", skyError)],
        ]
        ops["POST /tokens"] = [
            "tags": ["skyzone"], "summary": "Sign in", "requestBody": skyBody,
            "responses": ["200": response("Signed in.", json(ref("SkyZoneSignIn"))),
                          "400": response("Malformed input.", skyError),
                          "401": response("Unknown or wrong credentials.", json(ref("SkyZoneNotVerified")))],
        ]
        ops["GET /customer"] = [
            "tags": ["skyzone"], "summary": "The signed-in profile", "security": [["bearer": []]],
            "responses": ["200": response("The profile.", json(ref("SkyZoneProfile"))),
                          "401": response("No valid token.", skyError)],
        ]
        return ops
    }

    fileprivate static var skyZoneSchemas: Object {
        let address = object(["street": string, "city": string, "countryCode": string, "stateCode": string, "postalCode": string])
        let profileFields: [String: Object] = [
            "id": integer, "email": string, "firstName": string, "lastName": string, "birthday": string,
            "lastVisitLocationName": string, "lastVisitDate": string, "loyaltyStatusBanner": string, "address": address,
            "phoneNumber": string, "mobilePhoneNumber": string, "gender": string, "photo": string, "skySockSize": string,
            "emergencyContactName": string, "emergencyContactNumber": string, "external-token": string, "external-type": string,
        ]
        return [
            "SkyZoneError": object(["error": string]),
            "SkyZoneProfile": object(profileFields),
            "SkyZoneCredentials": [
                "type": "object",
                "description": "Either username and password, or external-token and external-type.",
                "properties": ["username": string, "password": string, "external-token": string,
                               "external-type": ["type": "string", "enum": ["facebook", "twitter", "instagram"]]],
            ] as Object,
            "SkyZoneSignIn": object(["auth": object(["verified": ["const": true], "token": string]), "profile": ref("SkyZoneProfile")]),
            "SkyZoneNotVerified": object(["auth": object(["verified": ["const": false], "token": ["const": ""]])]),
        ]
    }
}
