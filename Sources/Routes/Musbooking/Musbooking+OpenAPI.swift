import HTTPServer
import EmulationKit

/// What the OpenAPI document says about musbooking's routes and bodies (docs/control-plane.md, "OpenAPI").
extension Musbooking: OpenAPIDocumented {
    package static var openAPIOperations: [String: OAS.Object] { OAS.musbookingOperations }
    package static var openAPISchemas: OAS.Object { OAS.musbookingSchemas }
}

extension OAS {
    fileprivate static var musbookingOperations: [String: Object] {
        var ops: [String: Object] = [:]
        let plain = text
        let musbookingNote = "Parameters from a form, multipart or the query string (names in any case); a JSON body is not read."
        func mus(_ summary: String, _ fields: [String: Object], required: [String], ok: Object, auth: Bool, method: String = "POST") -> Object {
            var op: Object = ["tags": ["musbooking"], "summary": .string(summary), "description": .string(musbookingNote)]
            var responses: Object = ["200": ok, "400": response("The reason, in Russian, as plain text.", plain)]
            if auth {
                op.set("security", [["bearer": []]])
                responses.set("401", response("Access denied (missing or unknown token).", plain))
            }
            if method == "GET" {
                op.set("parameters", .array(fields.keys.sorted().map { query($0, "", required: required.contains($0)) }))
            } else if !fields.isEmpty {
                op.set("requestBody", body(["type": "object", "properties": members(fields), "required": strings(required)], [form, multipart], required: !required.isEmpty))
            }
            op.set("responses", responses)
            return op
        }
        ops["POST /api/users/sms"] = mus("Send an SMS code", ["phone": string], required: ["phone"], ok: response("Code sent.", plain), auth: false)
        ops["POST /api/users/register"] = mus("Register with the SMS code",
            ["name": string, "phone": string, "code": string, "login": string, "password": string, "lastname": string,
             "surname": string, "email": string, "birthday": string],
            required: ["name", "phone", "code"], ok: response("The login and password.", json(ref("MusbookingRegistered"))), auth: false)
        let loginFields: [String: Object] = ["login": string, "password": string]
        let loginOK = response("Signed in: user id and token.", json(ref("MusbookingLogin")))
        ops["POST /api/auth/login"] = mus("Sign in", loginFields, required: ["login", "password"], ok: loginOK, auth: false)
        ops["GET /api/auth/login"] = mus("Sign in (query string)", loginFields, required: ["login", "password"], ok: loginOK, auth: false, method: "GET")
        ops["GET /api/users/user"] = mus("The signed-in user", [:], required: [], ok: response("The user.", json(ref("MusbookingUser"))), auth: true, method: "GET")
        ops["POST /api/users/change"] = mus("Change the profile",
            ["name": string, "firstName": string, "lastname": string, "lastName": string, "surname": string, "surName": string,
             "email": string, "birthday": string, "fcm": string],
            required: [], ok: response("Changed; empty body."), auth: true)
        ops["POST /api/users/restore"] = mus("A new password by SMS or e-mail",
            ["login": string, "mail": string, "email": string, "phone": string, "sms": string],
            required: [], ok: response("Where the password went.", plain), auth: false)
        ops["POST /api/users/send-confirm"] = mus("E-mail a confirmation link", [:], required: [],
            ok: response("Sent.", json(["const": "ok"])), auth: true)
        let confirmOK = response("Confirmed.", plain)
        ops["GET /api/users/confirm"] = mus("Confirm the e-mail (link from the e-mail)", ["id": string], required: ["id"], ok: confirmOK, auth: false, method: "GET")
        ops["POST /api/users/confirm"] = mus("Confirm the e-mail", ["id": string], required: ["id"], ok: confirmOK, auth: false)
        var category = mus("A category", [:], required: [], ok: response("The category.", json(ref("MusbookingCategory"))), auth: true, method: "GET")
        category.set("parameters", [path("id", "Category id (an integer).")])
        if var responses = category["responses"] {
            responses.set("404", response("Not Found.", plain))
            category.set("responses", responses)
        }
        ops["GET /api/categories/{id}"] = category
        return ops
    }

    fileprivate static var musbookingSchemas: Object {
        let part = object(["domainId": string, "name": string, "forfeit": number, "isBanned": boolean, "discount": integer])
        let musbookingUser = object([
            "id": string, "login": nullableString, "name": nullableString, "firstName": nullableString, "lastName": nullableString,
            "surName": nullableString, "phone": nullableString, "email": nullableString, "birthday": nullableString,
            "room": nullableString, "base": nullableString, "isConfirmed": boolean, "fcm": nullableString, "parts": array(part),
        ])
        return [
            "MusbookingUser": musbookingUser,
            "MusbookingLogin": object(["key": string, "token": string]),
            "MusbookingRegistered": object(["login": string, "password": string]),
            "MusbookingCategory": ["type": "object"] as Object,
        ]
    }
}
