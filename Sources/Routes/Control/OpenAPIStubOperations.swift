import EmulationKit

/// What the OpenAPI document says about WireMock's admin API under `/__admin/` (docs/stubs.md).
extension OAS {
    package static var stubOperations: [String: Object] {
        var ops: [String: Object] = [:]
        func admin(_ summary: String, _ responses: Object, body: Object? = nil, parameters: [Object]? = nil) -> Object {
            var all = responses
            all.set("403", adminForbidden)
            var op: Object = ["tags": ["stubs"], "summary": .string(summary), "responses": all]
            if let body { op.set("requestBody", body) }
            if let parameters { op.set("parameters", .array(parameters)) }
            return op
        }
        let matcher: Object = ["type": "object", "description": "One of equalTo (with caseInsensitive), contains, matches, doesNotMatch, absent, equalToJson (with ignoreArrayOrder, ignoreExtraElements), matchesJsonPath."]
        let requestPattern: Object = ["type": "object", "properties": [
            "method": ["type": "string", "example": "GET"], "url": string, "urlPath": ["type": "string", "example": "/config/flags"],
            "urlPattern": string, "urlPathPattern": string,
            "queryParameters": ["type": "object", "additionalProperties": matcher], "headers": ["type": "object", "additionalProperties": matcher],
            "cookies": ["type": "object", "additionalProperties": matcher], "bodyPatterns": array(matcher),
            "basicAuthCredentials": object(["username": string, "password": string], required: ["username", "password"]),
        ], "additionalProperties": false]
        let mapping: Object = ["type": "object", "required": ["request"], "properties": [
            "id": string, "uuid": string, "name": string, "priority": ["type": "integer", "minimum": 1],
            "request": requestPattern,
            "response": ["type": "object", "description": "status, statusMessage, headers, body | jsonBody | base64Body | bodyFileName, fixedDelayMilliseconds, delayDistribution, fault, transformers.",
                         "example": ["status": 200, "jsonBody": ["newCheckout": true]] as Object],
            "scenarioName": string, "requiredScenarioState": string, "newScenarioState": string,
            "persistent": ["type": "boolean"], "metadata": ["type": "object"],
        ], "additionalProperties": false]
        let refused = response("The mapping or pattern is refused: WireMock's error shape, the field's JSON pointer named; nothing added.", json([
            "type": "object", "properties": ["errors": array(object(["code": ["type": "integer"], "source": object(["pointer": string]),
                                                                     "title": string, "detail": string]))],
        ]))
        let empty = response("Done.", json(["type": "object"]))
        let notFound = response("No mapping has that id.", json(["type": "object"]))
        let id = path("id", "The mapping's UUID.")
        let list: Object = object(["mappings": array(mapping), "meta": object(["total": ["type": "integer"]])])
        let journal: Object = object(["requests": array(["type": "object"]), "meta": object(["total": ["type": "integer"]]),
                                      "requestJournalDisabled": ["type": "boolean"]])
        ops["GET /__admin/mappings"] = admin("Every stub mapping, newest first", ["200": response("The mappings.", json(list))])
        ops["POST /__admin/mappings"] = admin("Add a stub mapping", ["201": response("Added, with its id.", json(mapping)), "422": refused],
                                              body: body(mapping, [jsonType]))
        ops["DELETE /__admin/mappings"] = admin("Remove every stub mapping", ["200": empty])
        ops["GET /__admin/mappings/{id}"] = admin("One stub mapping", ["200": response("The mapping.", json(mapping)), "404": notFound], parameters: [id])
        ops["PUT /__admin/mappings/{id}"] = admin("Replace a stub mapping", ["200": response("Replaced.", json(mapping)), "404": notFound, "422": refused],
                                                  body: body(mapping, [jsonType]), parameters: [id])
        ops["DELETE /__admin/mappings/{id}"] = admin("Remove a stub mapping", ["200": empty, "404": notFound], parameters: [id])
        ops["POST /__admin/mappings/reset"] = admin("Stubs back to the --mappings folder", ["200": empty, "422": refused])
        ops["POST /__admin/mappings/import"] = admin("Add many mappings, all or none", ["200": empty, "422": refused], body: body(object([
            "mappings": array(mapping),
            "importOptions": object(["duplicatePolicy": ["type": "string", "enum": ["OVERWRITE", "IGNORE"]], "deleteAllNotInImport": ["type": "boolean"]]),
        ], required: ["mappings"]), [jsonType]))
        ops["GET /__admin/requests"] = admin("The journal as WireMock serve events, newest first", ["200": response("Requests.", json(journal))])
        ops["DELETE /__admin/requests"] = admin("Empty the journal", ["200": empty])
        ops["POST /__admin/requests/reset"] = admin("Empty the journal", ["200": empty])
        ops["POST /__admin/requests/count"] = admin("How many journaled requests a request pattern matches", [
            "200": response("The count.", json(object(["count": ["type": "integer"], "requestJournalDisabled": ["type": "boolean"]]))), "422": refused,
        ], body: body(requestPattern, [jsonType]))
        ops["POST /__admin/requests/find"] = admin("The journaled requests a request pattern matches", [
            "200": response("The requests.", json(object(["requests": array(["type": "object"]), "requestJournalDisabled": ["type": "boolean"]]))), "422": refused,
        ], body: body(requestPattern, [jsonType]))
        ops["GET /__admin/requests/unmatched"] = admin("Requests no stub and no system answered", [
            "200": response("The requests.", json(object(["requests": array(["type": "object"]), "requestJournalDisabled": ["type": "boolean"]]))),
        ])
        ops["GET /__admin/scenarios"] = admin("Every scenario and its state", ["200": response("Scenarios.", json(object(["scenarios": array(object([
            "id": string, "name": string, "state": string, "possibleStates": array(string), "mappings": array(mapping),
        ]))])))])
        ops["POST /__admin/scenarios/reset"] = admin("Every scenario back to Started", ["200": empty])
        ops["GET /__mock/stubs"] = ["tags": ["admin"], "summary": "The stubs as the console lists them, newest first", "responses": [
            "200": response("Each mapping with its hits and its scenario's state.", json(array(object([
                "id": string, "name": ["type": ["string", "null"]], "priority": ["type": "integer"], "method": string,
                "url": ["type": ["string", "null"]], "urlMatch": ["type": ["string", "null"]], "status": ["type": "integer"],
                "hits": ["type": "integer"], "scenario": ["type": ["string", "null"]], "scenarioState": ["type": ["string", "null"]],
                "requiredScenarioState": ["type": ["string", "null"]], "fromFiles": ["type": "boolean"],
            ])))),
            "403": adminForbidden,
        ]] as Object
        ops["POST /__admin/reset"] = admin("Journal emptied, stubs back to the --mappings folder, scenarios to Started", ["200": empty, "422": refused])
        return ops
    }
}
