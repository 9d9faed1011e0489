import EmulationKit

/// What several entries of the admin table document alike: parameters and schemas written once.
extension OAS {
    /// `?waitMs=`; the document sets its maximum to the server's bound (`OpenAPIDocument.completed`).
    package static var waitMs: Object {
        query("waitMs", "Answer once a match exists, or after this many ms with what there is (at most 30000).",
              schema: ["type": "integer", "minimum": 0, "maximum": 30000])
    }

    /// The journal's filters (`ControlPlane.filter`).
    package static func journalFilters(_ systems: SystemCatalog) -> [Object] {
        let nonEmpty: Object = ["type": "string", "minLength": 1]
        return [
            query("system", systems.names.joined(separator: ", ") + ", or stubs (answered by a stub mapping).",
                  schema: ["type": "string", "enum": strings(systems.names + ["stubs"])]),
            query("method", "GET, POST, …, or WS.", schema: nonEmpty),
            query("path", "Exact, or a pattern with *.", schema: nonEmpty), query("status", "", schema: ["type": "integer", "minimum": 100, "maximum": 599]),
            query("since", "Only entries after this id; then the oldest `limit`.", schema: ["type": "integer", "minimum": 0, "maximum": 2147483647]),
            query("limit", "At most this many (default 100).", schema: ["type": "integer", "minimum": 1, "maximum": 100000]),
            query("body", "Only entries whose request body (after redaction) contains this text.", schema: nonEmpty),
            query("hint", "Only entries with (true) or without (false) a hint.", schema: ["type": "string", "enum": ["true", "false"]]),
            waitMs,
        ]
    }

    /// `GET`/`PUT /__mock/state`'s document (the `--state` file's format).
    package static var stateDocument: Object {
        ["type": "object", "required": ["format", "version", "systems"], "properties": [
            "format": ["type": "string", "const": "mock-server-state"], "version": ["type": "integer", "const": 1],
            "savedAt": ["type": "string"], "systems": ["type": "object"],
        ]]
    }

    /// `POST /__mock/accounts`' body, for the systems that administer accounts.
    package static func accountInput(_ administered: [any AccountAdministration.Type]) -> Object {
        // Optional fields may be null (read as absent).
        let optionalText: Object = ["type": ["string", "null"]]
        return ["type": "object", "required": ["system"], "properties": [
            "system": ["type": "string", "enum": strings(administered.map { $0.name })],
            "phone": optionalText, "password": optionalText, "login": optionalText, "name": optionalText, "lastName": optionalText,
            "surName": optionalText, "email": optionalText, "isConfirmed": ["type": ["boolean", "null"]], "birthday": optionalText,
            "externalToken": optionalText, "externalType": ["type": ["string", "null"], "enum": ["facebook", "twitter", "instagram", .null]],
            "firstName": optionalText, "mobilePhoneNumber": optionalText,
        ], "example": administered.first?.accountExample ?? [:]]
    }

    /// An isolated instance: its id, base URL and port.
    package static var instance: Object {
        ["type": "object", "required": ["id", "baseURL", "port"], "properties": [
            "id": ["type": "string"], "baseURL": ["type": "string"], "port": ["type": "integer"],
        ]]
    }

    /// WireMock's value matchers, as a stub's request pattern uses them.
    private static var stubMatcher: Object {
        ["type": "object", "description": "One of equalTo (with caseInsensitive), contains, matches, doesNotMatch, absent, equalToJson (with ignoreArrayOrder, ignoreExtraElements), matchesJsonPath."]
    }

    /// WireMock's request pattern.
    package static var stubRequestPattern: Object {
        let matcher = stubMatcher
        return ["type": "object", "properties": [
            "method": ["type": "string", "example": "GET"], "url": string, "urlPath": ["type": "string", "example": "/config/flags"],
            "urlPattern": string, "urlPathPattern": string,
            "queryParameters": ["type": "object", "additionalProperties": matcher], "headers": ["type": "object", "additionalProperties": matcher],
            "cookies": ["type": "object", "additionalProperties": matcher], "bodyPatterns": array(matcher),
            "basicAuthCredentials": object(["username": string, "password": string], required: ["username", "password"]),
        ], "additionalProperties": false]
    }

    /// WireMock's stub mapping.
    package static var stubMapping: Object {
        ["type": "object", "required": ["request"], "properties": [
            "id": ["type": "string", "format": "uuid"], "uuid": ["type": "string", "format": "uuid"], "name": string,
            "priority": ["type": "integer", "minimum": 1],
            "request": stubRequestPattern,
            "response": ["type": "object", "description": "status, statusMessage, headers, body | jsonBody | base64Body | bodyFileName, fixedDelayMilliseconds, delayDistribution, fault, transformers.",
                         "example": ["status": 200, "jsonBody": ["newCheckout": true]] as Object],
            "scenarioName": string, "requiredScenarioState": string, "newScenarioState": string,
            "persistent": ["type": "boolean"], "metadata": ["type": "object"],
        ], "additionalProperties": false]
    }

    /// WireMock's 422.
    package static var stubRefused: Object {
        response("The mapping or pattern is refused: WireMock's error shape, the field's JSON pointer named (none, as WireMock, when the body is not JSON at all); nothing added.", json([
            "type": "object", "properties": ["errors": array(object(["code": ["type": "integer"], "source": object(["pointer": string], required: []),
                                                                     "title": string, "detail": string]))],
        ]))
    }

    /// A change the `--mappings` folder did not take (`persistent: true`, a save): nothing changed.
    package static func stubNotSaved(_ why: String) -> Object {
        response(why + " Nothing changed; X-Mock-Hint says why.", json([
            "type": "object", "properties": ["errors": array(object(["code": ["type": "integer"], "title": string, "detail": string]))],
        ]))
    }

    /// WireMock's record spec (`/__admin/recordings/start`, `/snapshot`).
    package static func recordSpec(target: Bool) -> Object {
        let given: Object = [
            "filters": ["type": "object", "description": "A request pattern (urlPattern, method, headers...): only the exchanges it matches are recorded. ids and allowNonProxied are refused."],
            "captureHeaders": ["type": "object", "additionalProperties": object(["caseInsensitive": ["type": "boolean"]]),
                               "description": "Request fields recorded as equalTo matchers (Authorization and Cookie only when named)."],
            "requestBodyPattern": object(["matcher": ["type": "string", "enum": ["auto", "equalTo", "equalToJson", "equalToXml"]],
                                          "ignoreArrayOrder": ["type": "boolean"], "ignoreExtraElements": ["type": "boolean"], "caseInsensitive": ["type": "boolean"]],
                                         required: []),
            "extractBodyCriteria": object(["textSizeThreshold": ["type": "integer", "minimum": 0], "binarySizeThreshold": ["type": "integer", "minimum": 0]],
                                          required: []),
            "outputFormat": ["type": "string", "enum": ["FULL", "IDS"]],
            "persist": ["type": "boolean", "default": true], "repeatsAsScenarios": ["type": "boolean", "default": true],
        ]
        // A null member is read as absent (its default), as WireMock's Jackson reads it: each type admits null.
        let properties = nullableMembers(given)
        guard target else { return ["type": "object", "properties": properties, "additionalProperties": false] }
        let targetBaseUrl: Object = ["type": "string", "example": "http://127.0.0.1:8081"]
        guard case .object(let members) = properties else { return properties }
        return ["type": "object", "properties": .object([(key: "targetBaseUrl", value: targetBaseUrl)] + members),
                "required": ["targetBaseUrl"], "additionalProperties": false]
    }

    /// The recorder's answer: the new mappings (or their ids, `outputFormat: IDS`).
    package static var recordedMappings: Object {
        response("The recorded mappings (or their ids, with outputFormat IDS).", json(object(["mappings": array(stubMapping), "ids": array(string)], required: [])))
    }

    /// WireMock's `{}` answer.
    package static var stubDone: Object { response("Done.", json(["type": "object"])) }
    package static var stubNotFound: Object { response("No mapping has that id.", json(["type": "object"])) }
    package static var stubId: Object { path("id", "The mapping's UUID.") }
    /// WireMock's near misses, nearest first; `distance` is this server's measure (docs/stubs.md).
    package static var stubNearMisses: Object {
        response("Near misses.", json(object(["nearMisses": array(object([
            "request": ["type": "object"], "stubMapping": ["type": "object"], "requestPattern": ["type": "object"],
            "matchResult": object(["distance": ["type": "number", "minimum": 0, "maximum": 1]]), "scenarioState": string,
        ], required: ["request", "matchResult"]))])))
    }

    /// A paging count (`limit`, `offset`): a whole number, 0 or more.
    package static func stubCount(_ name: String, _ description: String) -> Object {
        query(name, description, schema: ["type": "integer", "minimum": 0])
    }
    /// A paging parameter that is not a count, or a parameter these routes do not know.
    package static var stubBadQuery: Object {
        response("A query parameter is bad or unknown (WireMock's error shape; X-Mock-Hint says which).", json(["type": "object"]))
    }

    /// Journaled requests as WireMock lists them.
    package static var stubRequests: Object {
        json(object(["requests": array(["type": "object"]), "requestJournalDisabled": ["type": "boolean"]]))
    }
}
