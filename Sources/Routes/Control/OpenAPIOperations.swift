/// What the OpenAPI document says about each HTTP route, keyed `METHOD /path/{param}` (API.md
/// revision 2). The document lists the router's routes; a test keeps both lists equal.
extension OAS {
    static var operations: [String: Object] {
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
            "tags": ["skyzone"], "summary": "The signed-in profile", "security": [["bearer": [String]()]],
            "responses": ["200": response("The profile.", json(ref("SkyZoneProfile"))),
                          "401": response("No valid token.", skyError)],
        ]

        let plain = text
        let musbookingNote = "Parameters from a form, multipart or the query string (names in any case); a JSON body is not read."
        func mus(_ summary: String, _ fields: [String: Object], required: [String], ok: Object, auth: Bool, method: String = "POST") -> Object {
            var op: Object = ["tags": ["musbooking"], "summary": summary, "description": musbookingNote]
            var responses: Object = ["200": ok, "400": response("The reason, in Russian, as plain text.", plain)]
            if auth {
                op["security"] = [["bearer": [String]()]]
                responses["401"] = response("Access denied (missing or unknown token).", plain)
            }
            if method == "GET" {
                op["parameters"] = fields.keys.sorted().map { query($0, "", required: required.contains($0)) }
            } else if !fields.isEmpty {
                op["requestBody"] = body(["type": "object", "properties": fields, "required": required] as Object, [form, multipart], required: !required.isEmpty)
            }
            op["responses"] = responses
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
        category["parameters"] = [path("id", "Category id (an integer).")]
        if var responses = category["responses"] as? Object {
            responses["404"] = response("Not Found.", plain)
            category["responses"] = responses
        }
        ops["GET /api/categories/{id}"] = category

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
        for (key, op) in adminOperations { ops[key] = op }
        return ops
    }

    static var adminOperations: [String: Object] {
        var ops: [String: Object] = [:]
        func admin(_ summary: String, _ responses: Object, body: Object? = nil, parameters: [Object]? = nil, description: String? = nil) -> Object {
            var all = responses
            all["403"] = adminForbidden
            var op: Object = ["tags": ["admin"], "summary": summary, "responses": all]
            if let body { op["requestBody"] = body }
            if let parameters { op["parameters"] = parameters }
            if let description { op["description"] = description }
            return op
        }
        ops["GET /__mock/health"] = ["tags": ["admin"], "summary": "Ready (open to every client)",
                                     "responses": ["200": response("Ready.", json(ref("Health")))]] as Object
        ops["GET /__mock/sms"] = admin("Every SMS sent, oldest first", ["200": response("SMS.", json(array(ref("SMS"))))],
                                       parameters: [query("phone", "Only to this number, written in any form.")])
        ops["GET /__mock/emails"] = admin("Every e-mail sent, oldest first", ["200": response("E-mails.", json(array(ref("Email"))))],
                                          parameters: [query("to", "Only to this address, any case.")])
        ops["POST /__mock/reset"] = admin("Back to the seed: state, outbox, journal, faults, clock", ["204": response("Reset.")])
        ops["GET /__mock/requests"] = admin("The request journal, oldest first", [
            "200": response("Entries (secrets redacted, bodies cut at 4,096 bytes).", json(array(ref("JournalEntry")))),
            "400": adminBadRequest("A bad filter."),
        ], parameters: [
            query("system", "rows, gateway, skyzone, musbooking or rsschool."), query("method", "GET, POST, …, or WS."),
            query("path", "Exact, or a pattern with *."), query("status", "", schema: ["type": "integer", "minimum": 100, "maximum": 599]),
            query("since", "Only entries after this id; then the oldest `limit`.", schema: ["type": "integer", "minimum": 0, "maximum": 2147483647]),
            query("limit", "At most this many (default 100).", schema: ["type": "integer", "minimum": 1, "maximum": 100000]),
        ])
        ops["DELETE /__mock/requests"] = admin("Empty the journal", ["204": response("Emptied.")])
        ops["GET /__mock/faults"] = admin("Active fault rules", ["200": response("Rules, with remaining counts.", json(array(ref("FaultRule"))))])
        ops["POST /__mock/faults"] = admin("Add a fault rule", [
            "201": response("The rule with its id.", json(ref("FaultRule"))),
            "400": adminBadRequest("An invalid rule."),
        ], body: body(ref("FaultRuleInput"), [jsonType]),
        description: "Gateway rules: \"system\": \"gateway\", \"path\": a message type. Admin paths cannot be faulted.")
        ops["DELETE /__mock/faults"] = admin("Remove every fault rule", ["204": response("Removed.")])
        ops["DELETE /__mock/faults/{id}"] = admin("Remove one fault rule", [
            "204": response("Removed."), "404": response("No such rule.", json(ref("AdminError"))),
        ], parameters: [path("id", "The rule's id.")])
        let clock = response("The mock's clock.", json(ref("Clock")))
        ops["GET /__mock/clock"] = admin("The mock's clock", ["200": clock])
        ops["POST /__mock/clock"] = admin("Move the clock forward", ["200": clock, "400": adminBadRequest("Not a positive number of seconds.")],
                                          body: body(ref("ClockAdvance"), [jsonType]))
        ops["DELETE /__mock/clock"] = admin("Back to real time", ["200": clock])
        for (name, verb) in [("expire", "Expire"), ("revoke", "Revoke")] {
            ops["POST /__mock/tokens/\(name)"] = admin("\(verb) one token, a system's, or every system's", [
                "200": response("How many tokens.", json(ref("Affected"))), "400": adminBadRequest("Unknown system or a bad body."),
            ], body: body(ref("TokenControl"), [jsonType], required: false))
        }
        ops["GET /__mock/openapi.json"] = admin("This document", ["200": response("OpenAPI 3.1.", json(["type": "object"]))])
        ops["GET /__mock/accounts"] = admin("Every system's accounts, as the console lists them", [
            "200": response("Accounts keyed by system; never a password, tokens as their first 4 characters and an ellipsis.",
                            json(["type": "object", "additionalProperties": array(ref("AccountSummary"))])),
        ])

        // The web console (API.md §6.2): a page, its stylesheet and its script, from the binary.
        func asset(_ summary: String, _ type: String, _ what: String) -> Object {
            admin(summary, ["200": response(what, [type: ["schema": string]])])
        }
        ops["GET /__mock"] = asset("The web console (also at /__mock/)", "text/html", "The console's HTML page.")
        ops["GET /__mock/console.css"] = asset("The console's stylesheet", "text/css", "CSS.")
        ops["GET /__mock/console.js"] = asset("The console's script", "text/javascript", "JavaScript.")
        ops["GET /"] = [
            "tags": ["admin"], "summary": "The server's root: a browser is sent to the console",
            "description": "Accept preferring text/html (a browser navigating): 302 to /__mock/. Any other client: 404, as for any unknown path.",
            "responses": ["302": response("To the console.", text, headers: ["Location": ["schema": string]]),
                          "404": response("Not a browser.", json(ref("VaporError")))],
        ] as Object

        // WebSocket endpoints: a plain GET is told to upgrade; the protocol is in the document's description.
        for (path, what) in [("/__mock/echo", "Returns every message unchanged."),
                             ("/__mock/events", "Pushes one JSON text message {\"kind\", \"at\", \"data\"} per event (request, sms, email, fault, reset, clock), in order.")] {
            ops["GET \(path)"] = admin("WebSocket: \(what)", [
                "426": response("Not a WebSocket handshake: open it with Upgrade: websocket.", text, headers: ["Upgrade": ["schema": string]]),
            ], description: "A WebSocket endpoint (RFC 6455); a handshake refused by the admin guard gets the 403. \(what)")
        }
        return ops
    }
}
