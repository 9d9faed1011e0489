import HTTPServer
import EmulationKit
import MockControl
import MockAdminWire
import Stubs

extension MockAdmin {
    /// Every route of the mock's own surface (`/__mock`, WireMock's `/__admin`, and `/`), each with
    /// its method, path, documentation and handler: `MockApp.makeRouter` registers them (the guard
    /// once around the `.guarded` ones) and the OpenAPI document describes them from this table alone.
    /// `openAPI` answers `GET /__mock/openapi.json` (the document needs the finished router).
    func routes(openAPI: @escaping HTTPHandler) -> [AdminRoute] {
        OAS.adminRoutes(self, openAPI: openAPI)
    }
}

extension MockApp {
    /// Its admin table, for tests that walk it (the document's route answers 404 here).
    var adminRoutes: [AdminRoute] { admin.routes(openAPI: { _, _ in .empty(.notFound) }) }
}

extension OAS {
    // Written inside `OAS` so that the documentation reads without the prefix.
    fileprivate static func adminRoutes(_ admin: MockAdmin, openAPI: @escaping HTTPHandler) -> [AdminRoute] {
        let systems = admin.control.catalog, control = admin.control
        // Made by a route's first request (its handler is made then too), not at start.
        let stubs: @Sendable () -> StubAdmin = { StubAdmin(store: admin.stubs, journal: StubJournalReader(control: control, stubs: admin.stubs)) }
        let administered = systems.types.compactMap { $0 as? any AccountAdministration.Type }
        let clock = response("The mock's clock.", json(ref("Clock")))
        let filters = journalFilters(systems)
        // Null members are read as absent (WireMock's Jackson): the document says so.
        let stubSettings = nullable(object(["fixedDelay": ["type": "integer", "minimum": 0, "maximum": 600000],
                                            "delayDistribution": ["type": "object", "description": "{type: uniform, lower, upper} or {type: lognormal, median, sigma}"],
                                            "extended": ["type": "object"]], required: []))
        let stubReadOnly = stubNotSaved("The mapping is in a file of several mappings, which is read-only.")
        let stubNotWritten = stubNotSaved("The --mappings folder did not take the file (the disk's reason).")
        let events = "Pushes one JSON text message {\"kind\", \"at\", \"data\"} per event (request, sms, email, fault, reset, clock, and each admin change: fault.added/removed/usedUp, account.created/deleted, instance.started/stopped, state.replaced, outbox.cleared, journal.cleared), in order."
        let echo = "Returns every message unchanged."
        func webSocket(_ what: String) -> (summary: String, responses: Object, description: String) {
            ("WebSocket: \(what)",
             ["426": response("Not a WebSocket handshake: open it with Upgrade: websocket.", text, headers: ["Upgrade": ["schema": string]])],
             "A WebSocket endpoint (RFC 6455); a handshake refused by the admin guard gets the 403. \(what)")
        }
        func asset(_ path: String, _ summary: String, _ type: String, _ what: String, _ handler: @escaping HTTPHandler) -> AdminRoute {
            AdminRoute(.get, path, summary, ["200": response(what, [type: ["schema": string]])], handler: handler)
        }
        let (echoSummary, echoResponses, echoDescription) = webSocket(echo)
        let (eventsSummary, eventsResponses, eventsDescription) = webSocket(events)
        return [
            // Before the guard: health, and the console page (its token login comes first).
            AdminRoute(.health, door: .open, "Ready (open to every client)", ["200": response("Ready.", json(ref("Health")))],
                       refusable: false, handler: { [health = admin.environment.health] _, _ in .json(.ok, health.json) }),
            AdminRoute(.get, "/__mock", door: .open, "The web console (also at /__mock/)", [
                "200": response("The console's HTML page.", ["text/html": ["schema": string]]),
                "303": response("With --admin-token and the right token: signed in, on to /__mock/ (the token leaves the address bar).", text,
                                headers: ["Location": ["schema": string],
                                          "Set-Cookie": ["description": "mock_admin=…; Path=/__mock; Max-Age=43200; HttpOnly; SameSite=Strict: stands for X-Mock-Admin-Token from this browser, on this host, until it expires or the server restarts.", "schema": string]]),
                "429": response("Too many wrong tokens from this address in the last minute: try again after Retry-After seconds.", json(ref("AdminError")),
                                headers: ["Retry-After": ["schema": string]]),
            ], parameters: [query("token", "The --admin-token value, for a browser on another machine (it cannot send the header); ignored without --admin-token.")],
            refusable: true, handler: Console.page(guard: admin.guard, systems: admin.systems)),

            // The outbox.
            AdminRoute(.sms, "Every SMS sent, oldest first", ["200": response("SMS.", json(array(ref("SMS")))),
                                                              "400": adminBadRequest("A bad waitMs.")],
                       parameters: [query("phone", "Only to this number, written in any form."), waitMs], handler: admin.smsHandler),
            AdminRoute(.emails, "Every e-mail sent, oldest first", ["200": response("E-mails.", json(array(ref("Email")))),
                                                                    "400": adminBadRequest("A bad waitMs.")],
                       parameters: [query("to", "Only to this address, any case."), waitMs], handler: admin.emailsHandler),
            AdminRoute(.clearSMS, "Empty the SMS part of the outbox", ["204": response("Emptied; the e-mails stay.")],
                       handler: admin.clearSMSHandler),
            AdminRoute(.clearEmails, "Empty the e-mail part of the outbox", ["204": response("Emptied; the SMS stay.")],
                       handler: admin.clearEmailsHandler),

            // Accounts, the whole state, reset, instances.
            AdminRoute(.accounts, "Every system's accounts, as the console lists them, a page at a time", [
                "200": response("Accounts keyed by system; never a password, tokens as their first 4 characters and an ellipsis. At most 500 per system: a system with more is named in X-Mock-Truncated, and X-Mock-Hint says how to ask for its next page.",
                                json(["type": "object", "additionalProperties": array(ref("AccountSummary"))]),
                                headers: ["X-Mock-Truncated": ["description": "system=total for each system with accounts beyond this page, comma-separated; absent when every list is whole.", "schema": string]]),
                "400": adminBadRequest("An unknown system, or an offset or limit out of range."),
            ], parameters: [query("system", "Only this system's accounts."),
                            query("offset", "Skip this many accounts of each listed system (default 0).", schema: ["type": "integer", "minimum": 0]),
                            query("limit", "At most this many accounts per system (1 to 500, the default).", schema: ["type": "integer", "minimum": 1, "maximum": 500])],
            handler: { [systems = admin.systems] request, _ in AccountListingAnswer.answer(request, systems: systems) }),
            AdminRoute(.createAccount, "Create an account directly, in the state the test needs", [
                "201": response("The account as the listing shows it.", json(ref("AccountSummary"))),
                "400": adminBadRequest("A bad field (named)."), "409": response("It exists.", json(ref("AdminError"))),
                "503": response("The system's account cap is reached.", json(ref("AdminError"))),
            ], body: body(accountInput(administered), [jsonType]),
            description: administered.map { "\($0.name): \($0.accountFields)" }.joined(separator: "; ") + ".", handler: admin.createAccountHandler),
            AdminRoute(.removeAccount, "Remove one account and end its sessions", [
                "204": response("Removed."), "404": response("No such account.", json(ref("AdminError"))),
            ], parameters: [path("system", "The system's name."), path("id", "The account's id, as the listing shows it.")], handler: admin.removeAccountHandler),
            AdminRoute(.state, "Every system's state, the outbox and the clock offset (the --state file's format)", [
                "200": response("The state document.", json(stateDocument)),
            ], handler: admin.stateHandler),
            AdminRoute(.restoreState, "Replace the whole state with a document from GET /__mock/state", [
                "204": response("Replaced."), "400": adminBadRequest("The document does not load (the place is named); nothing changed."),
            ], body: body(stateDocument, [jsonType]), handler: admin.replaceStateHandler),
            AdminRoute(.reset, "Back to the seed (or to a given one): state, outbox, journal, faults, clock", [
                "204": response("Reset."), "400": adminBadRequest("The given seed does not load (the place is named); nothing changed."),
            ], body: body(["type": "object", "properties": ["seed": ["type": ["object", "null"], "description": "seed.json's format"]], "example": [:] as Object],
                          [jsonType], required: false),
            description: "Without a body (or with {}), back to the start seed; with {\"seed\": {…}}, every system reset to that seed.", handler: admin.resetHandler),
            AdminRoute(.createInstance, "Start an isolated mock on a new port", [
                "201": response("The instance: its id, base URL and port.", json(instance)),
                "400": adminBadRequest("A bad seed (the place is named) or smsCode."),
                "503": response("At --max-instances already, or no port to be had.", json(ref("AdminError"))),
            ], body: body(["type": "object", "properties": ["seed": ["type": ["object", "null"]], "smsCode": ["type": ["string", "null"], "pattern": "^[0-9]{1,9}$"]],
                           "example": ["smsCode": "1234"]], [jsonType], required: false),
            description: "A complete mock (the five systems, outbox, journal, faults, clock, console, its own /__mock/) whose state nothing else touches.",
            handler: admin.startInstanceHandler),
            AdminRoute(.instances, "The running instances", ["200": response("Instances, oldest first.", json(array(instance)))],
                       handler: admin.instancesHandler),
            AdminRoute(.removeInstance, "Stop an instance", [
                "204": response("Stopped (its connections closed)."), "404": response("No such instance.", json(ref("AdminError"))),
            ], parameters: [path("id", "The instance's id.")], handler: admin.stopInstanceHandler),

            // The web console's stylesheet and script (README, "The web console").
            asset(Console.stylePath, "The console's stylesheet", "text/css", "CSS.", Console.style),
            asset(Console.scriptPath, "The console's script", "text/javascript", "JavaScript.", Console.script),

            // The journal, faults, clock and tokens (docs/control-plane.md).
            AdminRoute(.requests, "The request journal, oldest first", [
                "200": response("Entries (secrets redacted, bodies cut at 4,096 bytes).", json(array(ref("JournalEntry")))),
                "400": adminBadRequest("A bad filter (unknown, empty or of the wrong type)."),
            ], parameters: filters, handler: control.requestsHandler),
            AdminRoute(.requestCount, "How many journal entries match", [
                "200": response("The number of matching entries.", json(["type": "object", "required": ["count"],
                                                                          "properties": ["count": ["type": "integer", "minimum": 0]]])),
                "400": adminBadRequest("A bad filter (unknown, empty or of the wrong type)."),
            ], parameters: filters + [query("atLeast", "With waitMs: answer once this many match.", schema: ["type": "integer", "minimum": 0, "maximum": 100000])],
            handler: control.requestCountHandler),
            AdminRoute(.clearRequests, "Empty the journal", ["204": response("Emptied.")], handler: control.clearRequestsHandler),
            AdminRoute(.requestsHAR, "The request journal as a HAR 1.2 file (Chrome devtools' import, any HAR viewer)", [
                "200": response("HTTP entries only (no WebSocket messages), oldest first, as the journal shows them: secrets redacted, bodies cut at 4,096 bytes, a body that is not UTF-8 in base64.",
                                json(ref("HAR"))),
                "400": adminBadRequest("A bad filter (unknown, empty or of the wrong type)."),
            ], parameters: filters, handler: control.requestsHARHandler),
            AdminRoute(.keepAsStub, "Keep a journal entry's answer as a stub mapping", [
                "201": response("The mapping added (method and url equalTo the entry's; its status, end-to-end fields and whole body), persistent under --mappings.",
                                json(stubMapping)),
                "404": response("The journal holds no entry with that id.", json(ref("AdminError"))),
                "409": response("No stubs are wired, or the --mappings folder refused the file (X-Mock-Hint says which).", json(["type": "object"])),
                "422": response("Nothing whole to replay: a WebSocket message, no answer (a closing fault), a truncating fault, or a response body the journal cut.",
                                json(ref("AdminError"))),
                "503": stubNotWritten,
            ], parameters: [path("id", "The entry's id (GET /__mock/requests).")], handler: control.keepAsStubHandler),
            AdminRoute(.faults, "Active fault rules", ["200": response("Rules, with remaining counts.", json(array(ref("FaultRule"))))],
                       handler: control.faultsHandler),
            AdminRoute(.addFault, "Add a fault rule", [
                "201": response("The rule with its id.", json(ref("FaultRule"))),
                "400": adminBadRequest("An invalid rule."),
            ], body: body(ref("FaultRuleInput"), [jsonType]),
            description: "\(systems.messageTypedTitle.prefix(1).uppercased() + systems.messageTypedTitle.dropFirst()) rules: \"system\": \"\(systems.messageTypedTitle)\", \"path\": a message type. Admin paths cannot be faulted.",
            handler: control.addFaultHandler),
            AdminRoute(.removeAllFaults, "Remove every fault rule", ["204": response("Removed.")], handler: control.removeFaultsHandler),
            AdminRoute(.removeFault, "Remove one fault rule", [
                "204": response("Removed."), "404": response("No such rule.", json(ref("AdminError"))),
            ], parameters: [path("id", "The rule's id.")], handler: control.removeFaultHandler),
            AdminRoute(.clock, "The mock's clock", ["200": clock], handler: control.clockHandler),
            AdminRoute(.advanceClock, "Move the clock forward", ["200": clock, "400": adminBadRequest("Not a positive number of seconds.")],
                       body: body(ref("ClockAdvance"), [jsonType]), handler: control.advanceClockHandler),
            AdminRoute(.resetClock, "Back to real time", ["200": clock], handler: control.resetClockHandler),
            AdminRoute(.expireTokens, "Expire one token, a system's, or every system's", [
                "200": response("How many tokens.", json(ref("Affected"))), "400": adminBadRequest("Unknown system or a bad body."),
            ], body: body(ref("TokenControl"), [jsonType], required: false), handler: control.tokensHandler(revoke: false)),
            AdminRoute(.revokeTokens, "Revoke one token, a system's, or every system's", [
                "200": response("How many tokens.", json(ref("Affected"))), "400": adminBadRequest("Unknown system or a bad body."),
            ], body: body(ref("TokenControl"), [jsonType], required: false), handler: control.tokensHandler(revoke: true)),

            // WebSockets: a plain GET (or a handshake the guard refused) is told to upgrade; the
            // protocol is in the document's description.
            AdminRoute(.get, ControlPlane.eventsPath, eventsSummary, eventsResponses, description: eventsDescription,
                       webSocket: control.eventsEndpoint(), handler: ControlPlane.upgradeToEvents),
            // Conformance runs and diagnostics: every message comes back unchanged.
            AdminRoute(.get, "/__mock/echo", echoSummary, echoResponses, description: echoDescription,
                       webSocket: WebSocketEndpoint(onMessage: { message, _ in WebSocketReply(messages: [message]) }),
                       handler: MockAdmin.upgradeToEcho),

            // WireMock's admin API over the stubs (docs/stubs.md), behind the same guard.
            AdminRoute(.stubs, tag: "stubs", "Every stub mapping, newest first",
                       ["200": response("The mappings.", json(object(["mappings": array(stubMapping), "meta": object(["total": ["type": "integer"]])]))),
                        "400": stubBadQuery],
                       parameters: [stubCount("limit", "At most this many mappings."), stubCount("offset", "Skip this many first.")],
                       handler: stubs().listMappingsHandler),
            AdminRoute(.addStub, tag: "stubs", "Add a stub mapping (persistent: true writes it to the --mappings folder first)", [
                "201": response("Added, with its id.", json(stubMapping)), "422": stubRefused, "409": stubReadOnly, "503": stubNotWritten,
            ], body: body(stubMapping, [jsonType]), handler: stubs().createHandler),
            AdminRoute(.post, "/__admin/mappings/new", tag: "stubs", "Add a stub mapping: WireMock's older path, the same as POST /__admin/mappings", [
                "201": response("Added, with its id.", json(stubMapping)), "422": stubRefused, "409": stubReadOnly, "503": stubNotWritten,
            ], body: body(stubMapping, [jsonType]), handler: stubs().createHandler),
            AdminRoute(.removeAllStubs, tag: "stubs", "Remove every stub mapping", ["200": stubDone], handler: stubs().removeMappingsHandler),
            AdminRoute(.refusedStubs, tag: "stubs", "The --mappings folder's mappings its last load refused, with why",
                       ["200": response("Each refused mapping's file, JSON pointer and reason, and the load's warnings.", json(object([
                           "refused": array(object(["file": string, "pointer": string, "reason": string])),
                           "warnings": array(string), "meta": object(["total": ["type": "integer"]]),
                       ])))], handler: stubs().refusedHandler),
            AdminRoute(.get, "/__admin/mappings/:id", tag: "stubs", "One stub mapping", ["200": response("The mapping.", json(stubMapping)), "404": stubNotFound],
                       parameters: [stubId], handler: stubs().mappingHandler),
            AdminRoute(.put, "/__admin/mappings/:id", tag: "stubs", "Replace a stub mapping",
                       ["200": response("Replaced.", json(stubMapping)), "404": stubNotFound, "422": stubRefused, "409": stubReadOnly, "503": stubNotWritten],
                       body: body(stubMapping, [jsonType]), parameters: [stubId], handler: stubs().editHandler),
            AdminRoute(.removeStub, tag: "stubs", "Remove a stub mapping (and a persistent one's file)",
                       ["200": stubDone, "404": stubNotFound, "409": stubReadOnly, "503": stubNotWritten],
                       parameters: [stubId], handler: stubs().removeMappingHandler),
            AdminRoute(.post, "/__admin/mappings/edit", tag: "stubs", "Replace the mapping the body's id names (WireMock's older form of PUT, which its Java client's editStub sends)",
                       ["204": response("Replaced."), "404": stubNotFound, "422": stubRefused, "409": stubReadOnly, "503": stubNotWritten],
                       body: body(stubMapping, [jsonType]), handler: stubs().editByBodyHandler),
            AdminRoute(.post, "/__admin/mappings/remove", tag: "stubs", "Remove the mapping the body's id names, or else every mapping with the body's request pattern (what the Java client's removeStub sends)",
                       ["200": stubDone, "422": stubRefused, "409": stubReadOnly, "503": stubNotWritten],
                       body: body(stubMapping, [jsonType]), handler: stubs().removeByBodyHandler),
            AdminRoute(.post, "/__admin/mappings/find-by-metadata", tag: "stubs", "The mappings whose metadata a string matcher matches (as JSON text)",
                       ["200": response("The mappings.", json(object(["mappings": array(stubMapping), "meta": object(["total": ["type": "integer"]])]))), "422": stubRefused],
                       body: body(["type": "object"], [jsonType]), handler: stubs().findByMetadataHandler),
            AdminRoute(.post, "/__admin/mappings/remove-by-metadata", tag: "stubs", "Remove the mappings whose metadata a string matcher matches",
                       ["200": stubDone, "422": stubRefused, "409": stubReadOnly, "503": stubNotWritten],
                       body: body(["type": "object"], [jsonType]), handler: stubs().removeByMetadataHandler),
            AdminRoute(.post, "/__admin/mappings/reset", tag: "stubs", "Stubs back to the --mappings folder", ["200": stubDone, "422": stubRefused],
                       handler: stubs().resetMappingsHandler),
            AdminRoute(.saveStubs, tag: "stubs", "Write every mapping added or changed over HTTP to the --mappings folder",
                       ["200": stubDone, "409": stubNotSaved("No --mappings folder, or a mapping in a file of several mappings (read-only)."), "503": stubNotWritten],
                       handler: stubs().saveMappingsHandler),
            AdminRoute(.importStubs, tag: "stubs", "Add many mappings, all or none",
                       ["200": stubDone, "422": stubRefused, "409": stubReadOnly, "503": stubNotWritten],
                       body: body(object([
                           "mappings": array(stubMapping),
                           "importOptions": object(["duplicatePolicy": ["type": "string", "enum": ["OVERWRITE", "IGNORE"]], "deleteAllNotInImport": ["type": "boolean"]]),
                       ], required: ["mappings"]), [jsonType]), handler: stubs().importHandler),
            AdminRoute(.post, "/__admin/recordings/start", tag: "stubs", "Start recording: what no stub and no system route answers goes to targetBaseUrl (http only), each exchange kept",
                       ["200": stubDone, "422": stubRefused], body: body(recordSpec(target: true), [jsonType]), handler: stubs().startRecordingHandler),
            AdminRoute(.post, "/__admin/recordings/stop", tag: "stubs", "Stop recording: the exchanges become mappings (persistent unless persist is false)", [
                "200": recordedMappings, "400": response("Not recording (WireMock's error 30).", json(["type": "object"])), "409": stubNotSaved("extractBodyCriteria without a --mappings folder, or a mapping file that cannot be replaced."), "503": stubNotWritten,
            ], handler: stubs().stopRecordingHandler),
            AdminRoute(.get, "/__admin/recordings/status", tag: "stubs", "Whether a recording runs",
                       ["200": response("The state.", json(object(["status": ["type": "string", "enum": ["NeverStarted", "Recording", "Stopped"]]])))],
                       handler: stubs().recordingStatusHandler),
            AdminRoute(.importHAR, tag: "stubs", "Add a HAR 1.2 document's entries as stub mappings, as the recorder makes them (browser devtools' Save all as HAR, Charles, GET /__mock/requests.har)", [
                "200": recordedMappings, "422": stubRefused, "409": stubNotSaved("A mapping file that cannot be replaced."), "503": stubNotWritten,
            ], body: body(object(["log": object(["entries": array(["type": "object"])])]), [jsonType]), handler: stubs().importHARHandler),
            AdminRoute(.post, "/__admin/recordings/snapshot", tag: "stubs", "Mappings from every proxied exchange kept so far (the same options as start, without targetBaseUrl)", [
                "200": recordedMappings, "422": stubRefused, "409": stubNotSaved("extractBodyCriteria without a --mappings folder, or a mapping file that cannot be replaced."), "503": stubNotWritten,
            ], body: body(recordSpec(target: false), [jsonType], required: false), handler: stubs().snapshotHandler),
            AdminRoute(.get, "/__admin/requests", tag: "stubs", "The journal as WireMock serve events, newest first", ["200": response("Requests.", json(object([
                "requests": array(["type": "object"]), "meta": object(["total": ["type": "integer"]]), "requestJournalDisabled": ["type": "boolean"],
            ]))), "400": stubBadQuery], parameters: [
                stubCount("limit", "At most this many events."),
                query("since", "Only requests after this ISO 8601 date-time.", schema: ["type": "string", "format": "date-time"]),
                query("unmatched", "true: only requests nothing answered.", schema: ["type": "string", "enum": ["true", "false"]]),
                query("matchingStub", "Only requests the mapping with this id answered."),
            ], handler: stubs().listRequestsHandler),
            AdminRoute(.delete, "/__admin/requests/:id", tag: "stubs", "Forget one serve event (200 whether or not it was there, as WireMock)", ["200": stubDone],
                       parameters: [path("id", "The serve event's id.")], handler: stubs().removeServedRequestHandler),
            AdminRoute(.post, "/__admin/requests/remove", tag: "stubs", "Forget the serve events a request pattern matches, and list them", [
                "200": response("The removed events.", json(object(["serveEvents": array(["type": "object"])]))), "422": stubRefused,
            ], body: body(stubRequestPattern, [jsonType]), handler: stubs().removeRequestsHandler),
            AdminRoute(.post, "/__admin/requests/remove-by-metadata", tag: "stubs", "Forget the serve events of the mappings whose metadata a string matcher matches", [
                "200": response("The removed events.", json(object(["serveEvents": array(["type": "object"])]))), "422": stubRefused,
            ], body: body(["type": "object"], [jsonType]), handler: stubs().removeRequestsByMetadataHandler),
            AdminRoute(.get, "/__admin/requests/unmatched/near-misses", tag: "stubs", "For each request nothing answered, the three mappings closest to matching it",
                       ["200": stubNearMisses], handler: stubs().unmatchedNearMissesHandler),
            AdminRoute(.post, "/__admin/near-misses/request", tag: "stubs", "The three mappings closest to matching a logged request ({url, method, headers?, body?})",
                       ["200": stubNearMisses, "422": stubRefused], body: body(["type": "object"], [jsonType]), handler: stubs().requestNearMissesHandler),
            AdminRoute(.post, "/__admin/near-misses/request-pattern", tag: "stubs", "The three journaled requests closest to a request pattern",
                       ["200": stubNearMisses, "422": stubRefused], body: body(stubRequestPattern, [jsonType]), handler: stubs().patternNearMissesHandler),
            AdminRoute(.get, "/__admin/files", tag: "stubs", "Every file under __files, as sorted full paths",
                       ["200": response("The paths.", json(array(string)))], handler: stubs().filesHandler),
            AdminRoute(.get, "/__admin/settings", tag: "stubs", "The global settings (fixedDelay, delayDistribution, extended; {\"settings\": {}} while none is set)",
                       ["200": response("The settings.", json(object(["settings": stubSettings])))], handler: stubs().settingsHandler),
            AdminRoute(.put, "/__admin/settings", tag: "stubs", "Replace the global settings: a delay for every stub answer whose mapping has none of its own, and extended (kept, returned)",
                       ["200": response("Replaced."), "422": stubRefused], body: body(stubSettings, [jsonType]), handler: stubs().settingsUpdateHandler),
            AdminRoute(.post, "/__admin/settings", tag: "stubs", "Replace the global settings (as PUT)",
                       ["200": response("Replaced."), "422": stubRefused], body: body(stubSettings, [jsonType]), handler: stubs().settingsUpdateHandler),
            AdminRoute(.patch, "/__admin/settings/extended", tag: "stubs", "Merge {\"extended\": {...}} into the global settings' extended, one level deep",
                       ["200": stubDone, "422": stubRefused], body: body(nullable(object(["extended": ["type": "object"]], required: [])), [jsonType]),
                       handler: stubs().settingsExtendedPatchHandler),
            AdminRoute(.get, "/__admin/", tag: "stubs", "Every stub mapping (WireMock's older GET /__admin/; /__admin without the slash redirects here)",
                       ["200": response("The mappings.", json(object(["mappings": array(stubMapping), "meta": object(["total": ["type": "integer"]])]))),
                        "302": response("GET /__admin: on to /__admin/ (no body).", headers: ["Location": ["schema": string]]), "400": stubBadQuery],
                       parameters: [stubCount("limit", "At most this many mappings."), stubCount("offset", "Skip this many first.")],
                       handler: stubs().adminRootHandler),
            AdminRoute(.get, "/__admin/swagger-ui/", tag: "stubs", "A page linking the OpenAPI document (Swagger UI itself is not bundled)",
                       ["200": response("An HTML page linking the OpenAPI document.", ["text/html": ["schema": string]])], handler: StubAdmin.swaggerUIHandler),
            AdminRoute(.get, "/__admin/docs", tag: "stubs", "Where the API's documents are (an HTML index, as WireMock's)",
                       ["200": response("An HTML page linking the OpenAPI document.", ["text/html": ["schema": string]])], handler: StubAdmin.docsIndexHandler),
            AdminRoute(.get, "/__admin/docs/swagger", tag: "stubs", "The OpenAPI document (the same as /__mock/openapi.json)",
                       ["200": response("OpenAPI 3.1.", json(["type": "object"]))], handler: openAPI),
            AdminRoute(.get, "/__admin/requests/:id", tag: "stubs", "One serve event",
                       ["200": response("The serve event.", json(["type": "object"])), "404": response("No journaled request has that id.", json(["type": "object"]))],
                       parameters: [path("id", "The serve event's id, as GET /__admin/requests gives it.")], handler: stubs().servedRequestHandler),
            AdminRoute(.delete, "/__admin/requests", tag: "stubs", "Empty the journal", ["200": stubDone], handler: stubs().clearRequestsHandler),
            AdminRoute(.post, "/__admin/requests/reset", tag: "stubs", "Empty the journal", ["200": stubDone], handler: stubs().resetRequestsHandler),
            AdminRoute(.countMatchingRequests, tag: "stubs", "How many journaled requests a request pattern matches", [
                "200": response("The count.", json(object(["count": ["type": "integer"], "requestJournalDisabled": ["type": "boolean"]]))), "422": stubRefused,
            ], body: body(stubRequestPattern, [jsonType]), handler: stubs().countRequestsHandler),
            AdminRoute(.findMatchingRequests, tag: "stubs", "The journaled requests a request pattern matches", [
                "200": response("The requests.", stubRequests), "422": stubRefused,
            ], body: body(stubRequestPattern, [jsonType]), handler: stubs().findRequestsHandler),
            AdminRoute(.get, "/__admin/requests/unmatched", tag: "stubs", "Requests no stub and no system answered", [
                "200": response("The requests.", stubRequests),
            ], handler: stubs().unmatchedHandler),
            AdminRoute(.stubScenarios, tag: "stubs", "Every scenario and its state", ["200": response("Scenarios.", json(object(["scenarios": array(object([
                "id": string, "name": string, "state": string, "possibleStates": array(string), "mappings": array(stubMapping),
            ]))])))], handler: stubs().scenariosHandler),
            AdminRoute(.resetStubScenarios, tag: "stubs", "Every scenario back to Started", ["200": stubDone], handler: stubs().resetScenariosHandler),
            AdminRoute(.put, "/__admin/scenarios/:name/state", tag: "stubs", "Set one scenario's state ({\"state\": …}), or with no body reset it to Started",
                       ["200": stubDone, "404": response("No scenario has that name.", json(["type": "object"])), "422": stubRefused],
                       body: body(object(["state": string], required: ["state"]), [jsonType], required: false),
                       parameters: [path("name", "The scenario's name.")], handler: stubs().scenarioStateHandler),
            AdminRoute(.post, "/__admin/reset", tag: "stubs", "Journal emptied, stubs back to the --mappings folder, scenarios to Started",
                       ["200": stubDone, "422": stubRefused], handler: stubs().resetHandler),
            AdminRoute(.get, "/__mock/stubs", "The stubs as the console lists them, newest first", [
                "200": response("Each mapping with its hits and its scenario's state.", json(array(object([
                    "id": string, "name": ["type": ["string", "null"]], "priority": ["type": "integer"], "method": string,
                    "url": ["type": ["string", "null"]], "urlMatch": ["type": ["string", "null"]], "status": ["type": "integer"],
                    "hits": ["type": "integer"], "scenario": ["type": ["string", "null"]], "scenarioState": ["type": ["string", "null"]],
                    "requiredScenarioState": ["type": ["string", "null"]], "fromFiles": ["type": "boolean"],
                ])))),
            ], handler: stubs().summariesHandler),

            // This document; `/`, which belongs to no system: a browser is sent to the console.
            AdminRoute(.get, "/__mock/openapi.json", "This document", ["200": response("OpenAPI 3.1.", json(["type": "object"]))], handler: openAPI),
            AdminRoute(.get, "/", door: .root, "The server's root: a browser is sent to the console", [
                "302": response("To the console.", text, headers: ["Location": ["schema": string]]),
                "404": response("Not a browser.", json(ref("VaporError"))),
            ], description: "Accept preferring text/html (a browser navigating): 302 to /__mock/. Any other client: 404, as for any unknown path.",
            handler: { request, _ in Console.rootAnswer(request) }),
        ]
    }
}
