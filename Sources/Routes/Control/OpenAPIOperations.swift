import EmulationKit

/// What the OpenAPI document says about each HTTP route, keyed `METHOD /path/{param}`
/// (docs/control-plane.md). The document lists the router's routes; a test keeps both lists equal.
extension OAS {
    package static func operations(_ systems: SystemCatalog) -> [String: Object] {
        var ops = adminOperations(systems).merging(stubOperations) { first, _ in first }
        for case let system as OpenAPIDocumented.Type in systems.types {
            ops.merge(system.openAPIOperations) { first, _ in first }
        }
        return ops
    }

    package static func adminOperations(_ systems: SystemCatalog) -> [String: Object] {
        var ops: [String: Object] = [:]
        func admin(_ summary: String, _ responses: Object, body: Object? = nil, parameters: [Object]? = nil, description: String? = nil) -> Object {
            var all = responses
            all.set("403", adminForbidden)
            var op: Object = ["tags": ["admin"], "summary": .string(summary), "responses": all]
            if let body { op.set("requestBody", body) }
            if let parameters { op.set("parameters", .array(parameters)) }
            if let description { op.set("description", .string(description)) }
            return op
        }
        ops["GET /__mock/health"] = ["tags": ["admin"], "summary": "Ready (open to every client)",
                                     "responses": ["200": response("Ready.", json(ref("Health")))]] as Object
        let waitMs = query("waitMs", "Answer once a match exists, or after this many ms with what there is (at most 30000).",
                           schema: ["type": "integer", "minimum": 0, "maximum": 30000])
        ops["GET /__mock/sms"] = admin("Every SMS sent, oldest first", ["200": response("SMS.", json(array(ref("SMS")))),
                                                                        "400": adminBadRequest("A bad waitMs.")],
                                       parameters: [query("phone", "Only to this number, written in any form."), waitMs])
        ops["GET /__mock/emails"] = admin("Every e-mail sent, oldest first", ["200": response("E-mails.", json(array(ref("Email")))),
                                                                              "400": adminBadRequest("A bad waitMs.")],
                                          parameters: [query("to", "Only to this address, any case."), waitMs])
        ops["DELETE /__mock/sms"] = admin("Empty the SMS part of the outbox", ["204": response("Emptied; the e-mails stay.")])
        ops["DELETE /__mock/emails"] = admin("Empty the e-mail part of the outbox", ["204": response("Emptied; the SMS stay.")])
        let stateDocument: Object = ["type": "object", "required": ["format", "version", "systems"], "properties": [
            "format": ["type": "string", "const": "mock-server-state"], "version": ["type": "integer", "const": 1],
            "savedAt": ["type": "string"], "systems": ["type": "object"],
        ]]
        ops["GET /__mock/state"] = admin("Every system's state, the outbox and the clock offset (the --state file's format)", [
            "200": response("The state document.", json(stateDocument)),
        ])
        ops["PUT /__mock/state"] = admin("Replace the whole state with a document from GET /__mock/state", [
            "204": response("Replaced."), "400": adminBadRequest("The document does not load (the place is named); nothing changed."),
        ], body: body(stateDocument, [jsonType]))
        ops["POST /__mock/reset"] = admin("Back to the seed (or to a given one): state, outbox, journal, faults, clock", [
            "204": response("Reset."), "400": adminBadRequest("The given seed does not load (the place is named); nothing changed."),
        ], body: body(["type": "object", "properties": ["seed": ["type": ["object", "null"], "description": "seed.json's format"]], "example": [:] as Object],
                      [jsonType], required: false),
        description: "Without a body (or with {}), back to the start seed; with {\"seed\": {…}}, every system reset to that seed.")
        let nonEmpty: Object = ["type": "string", "minLength": 1]
        let filters = [
            query("system", systems.names.dropLast().joined(separator: ", ") + " or " + (systems.names.last ?? "") + ".", schema: ["type": "string", "enum": strings(systems.names)]),
            query("method", "GET, POST, …, or WS.", schema: nonEmpty),
            query("path", "Exact, or a pattern with *.", schema: nonEmpty), query("status", "", schema: ["type": "integer", "minimum": 100, "maximum": 599]),
            query("since", "Only entries after this id; then the oldest `limit`.", schema: ["type": "integer", "minimum": 0, "maximum": 2147483647]),
            query("limit", "At most this many (default 100).", schema: ["type": "integer", "minimum": 1, "maximum": 100000]),
            query("body", "Only entries whose request body (after redaction) contains this text.", schema: nonEmpty),
            query("hint", "Only entries with (true) or without (false) a hint.", schema: ["type": "string", "enum": ["true", "false"]]),
            waitMs,
        ]
        ops["GET /__mock/requests"] = admin("The request journal, oldest first", [
            "200": response("Entries (secrets redacted, bodies cut at 4,096 bytes).", json(array(ref("JournalEntry")))),
            "400": adminBadRequest("A bad filter (unknown, empty or of the wrong type)."),
        ], parameters: filters)
        ops["GET /__mock/requests/count"] = admin("How many journal entries match", [
            "200": response("The number of matching entries.", json(["type": "object", "required": ["count"],
                                                                      "properties": ["count": ["type": "integer", "minimum": 0]]])),
            "400": adminBadRequest("A bad filter (unknown, empty or of the wrong type)."),
        ], parameters: filters + [query("atLeast", "With waitMs: answer once this many match.", schema: ["type": "integer", "minimum": 0, "maximum": 100000])])
        ops["DELETE /__mock/requests"] = admin("Empty the journal", ["204": response("Emptied.")])
        ops["GET /__mock/faults"] = admin("Active fault rules", ["200": response("Rules, with remaining counts.", json(array(ref("FaultRule"))))])
        ops["POST /__mock/faults"] = admin("Add a fault rule", [
            "201": response("The rule with its id.", json(ref("FaultRule"))),
            "400": adminBadRequest("An invalid rule."),
        ], body: body(ref("FaultRuleInput"), [jsonType]),
        description: "\(systems.messageTypedTitle.prefix(1).uppercased() + systems.messageTypedTitle.dropFirst()) rules: \"system\": \"\(systems.messageTypedTitle)\", \"path\": a message type. Admin paths cannot be faulted.")
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
        ops["GET /__mock/accounts"] = admin("Every system's accounts, as the console lists them, a page at a time", [
            "200": response("Accounts keyed by system; never a password, tokens as their first 4 characters and an ellipsis. At most 500 per system: a system with more is named in X-Mock-Truncated, and X-Mock-Hint says how to ask for its next page.",
                            json(["type": "object", "additionalProperties": array(ref("AccountSummary"))]),
                            headers: ["X-Mock-Truncated": ["description": "system=total for each system with accounts beyond this page, comma-separated; absent when every list is whole.", "schema": string]]),
            "400": adminBadRequest("An unknown system, or an offset or limit out of range."),
        ], parameters: [query("system", "Only this system's accounts."),
                        query("offset", "Skip this many accounts of each listed system (default 0).", schema: ["type": "integer", "minimum": 0]),
                        query("limit", "At most this many accounts per system (1 to 500, the default).", schema: ["type": "integer", "minimum": 1, "maximum": 500])])
        let administered = systems.types.compactMap { $0 as? any AccountAdministration.Type }
        // Optional fields may be null (read as absent).
        let optionalText: Object = ["type": ["string", "null"]]
        let accountInput: Object = ["type": "object", "required": ["system"], "properties": [
            "system": ["type": "string", "enum": strings(administered.map { $0.name })],
            "phone": optionalText, "password": optionalText, "login": optionalText, "name": optionalText, "lastName": optionalText,
            "surName": optionalText, "email": optionalText, "isConfirmed": ["type": ["boolean", "null"]], "birthday": optionalText,
            "externalToken": optionalText, "externalType": ["type": ["string", "null"], "enum": ["facebook", "twitter", "instagram", .null]],
            "firstName": optionalText, "mobilePhoneNumber": optionalText,
        ], "example": administered.first?.accountExample ?? [:]]
        ops["POST /__mock/accounts"] = admin("Create an account directly, in the state the test needs", [
            "201": response("The account as the listing shows it.", json(ref("AccountSummary"))),
            "400": adminBadRequest("A bad field (named)."), "409": response("It exists.", json(ref("AdminError"))),
            "503": response("The system's account cap is reached.", json(ref("AdminError"))),
        ], body: body(accountInput, [jsonType]),
        description: administered.map { "\($0.name): \($0.accountFields)" }.joined(separator: "; ") + ".")
        let instance: Object = ["type": "object", "required": ["id", "baseURL", "port"], "properties": [
            "id": ["type": "string"], "baseURL": ["type": "string"], "port": ["type": "integer"],
        ]]
        ops["POST /__mock/instances"] = admin("Start an isolated mock on a new port", [
            "201": response("The instance: its id, base URL and port.", json(instance)),
            "400": adminBadRequest("A bad seed (the place is named) or smsCode."),
            "503": response("At --max-instances already, or no port to be had.", json(ref("AdminError"))),
        ], body: body(["type": "object", "properties": ["seed": ["type": ["object", "null"]], "smsCode": ["type": ["string", "null"], "pattern": "^[0-9]{1,9}$"]],
                       "example": ["smsCode": "1234"]], [jsonType], required: false),
        description: "A complete mock (the five systems, outbox, journal, faults, clock, console, its own /__mock/) whose state nothing else touches.")
        ops["GET /__mock/instances"] = admin("The running instances", ["200": response("Instances, oldest first.", json(array(instance)))])
        ops["DELETE /__mock/instances/{id}"] = admin("Stop an instance", [
            "204": response("Stopped (its connections closed)."), "404": response("No such instance.", json(ref("AdminError"))),
        ], parameters: [path("id", "The instance's id.")])
        ops["DELETE /__mock/accounts/{system}/{id}"] = admin("Remove one account and end its sessions", [
            "204": response("Removed."), "404": response("No such account.", json(ref("AdminError"))),
        ], parameters: [path("system", "The system's name."), path("id", "The account's id, as the listing shows it.")])

        // The web console (README, "The web console"): a page, its stylesheet and its script, from the binary.
        func asset(_ summary: String, _ type: String, _ what: String) -> Object {
            admin(summary, ["200": response(what, [type: ["schema": string]])])
        }
        ops["GET /__mock"] = admin("The web console (also at /__mock/)", [
            "200": response("The console's HTML page.", ["text/html": ["schema": string]]),
            "303": response("With --admin-token and the right token: signed in, on to /__mock/ (the token leaves the address bar).", text,
                            headers: ["Location": ["schema": string],
                                      "Set-Cookie": ["description": "mock_admin=…; Path=/__mock; Max-Age=43200; HttpOnly; SameSite=Strict: stands for X-Mock-Admin-Token from this browser, on this host, until it expires or the server restarts.", "schema": string]]),
            "429": response("Too many wrong tokens from this address in the last minute: try again after Retry-After seconds.", json(ref("AdminError")),
                            headers: ["Retry-After": ["schema": string]]),
        ], parameters: [query("token", "The --admin-token value, for a browser on another machine (it cannot send the header); ignored without --admin-token.")])
        ops["GET /__mock/console.css"] = asset("The console's stylesheet", "text/css", "CSS.")
        ops["GET /__mock/console.js"] = asset("The console's script", "text/javascript", "JavaScript.")
        ops["GET /"] = [
            "tags": ["admin"], "summary": "The server's root: a browser is sent to the console",
            "description": "Accept preferring text/html (a browser navigating): 302 to /__mock/. Any other client: 404, as for any unknown path.",
            "responses": ["302": response("To the console.", text, headers: ["Location": ["schema": string]]),
                          "404": response("Not a browser.", json(ref("VaporError")))],
        ] as Object

        markStateChangingOperations(&ops)

        // WebSocket endpoints: a plain GET is told to upgrade; the protocol is in the document's description.
        for (path, what) in [("/__mock/echo", "Returns every message unchanged."),
                             ("/__mock/events", "Pushes one JSON text message {\"kind\", \"at\", \"data\"} per event (request, sms, email, fault, reset, clock, and each admin change: fault.added/removed/usedUp, account.created/deleted, instance.started/stopped, state.replaced, outbox.cleared, journal.cleared), in order.")] {
            ops["GET \(path)"] = admin("WebSocket: \(what)", [
                "426": response("Not a WebSocket handshake: open it with Upgrade: websocket.", text, headers: ["Upgrade": ["schema": string]]),
            ], description: "A WebSocket endpoint (RFC 6455); a handshake refused by the admin guard gets the 403. \(what)")
        }
        return ops
    }

    /// Every state-changing admin operation says so in its 403; those a client may send without a
    /// JSON body declare the `X-Mock-Admin` header they then need: required without a body,
    /// optional beside an optional body (a JSON body stands for it).
    package static func markStateChangingOperations(_ ops: inout [String: Object]) {
        for (key, operation) in ops where !key.hasPrefix("GET ") && key.contains(" /__mock") {
            var op = operation
            if var responses = op["responses"], responses["403"] != nil {
                responses.set("403", adminWriteForbidden)
                op.set("responses", responses)
            }
            if op["requestBody"]?["required"] != .bool(true) {
                var parameters: [Object] = []
                if case .array(let given)? = op["parameters"] { parameters = given }
                op.set("parameters", .array(parameters + [adminMarker(required: op["requestBody"] == nil)]))
            }
            ops[key] = op
        }
    }
}
