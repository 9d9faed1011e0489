import HTTPServer
import EmulationKit

/// The named schemas of the OpenAPI document: the admin API's, then each documented system's.
extension OAS {
    package static func schemas(_ systems: SystemCatalog) -> Object {
        let nullableInt: Object = ["type": ["integer", "null"]]
        let action: Object = [
            "type": "object",
            "description": "Exactly one of: delayMs; status (+ body, headers); close; reset; truncate; malformedJSON; for WebSocket message rules delayMs, reply, noReply, closeCode.",
            "properties": [
                "delayMs": ["type": "integer", "minimum": 0, "maximum": 600000], "status": ["type": "integer", "minimum": 200, "maximum": 599],
                "body": string, "headers": ["type": "object", "additionalProperties": string],
                "close": ["const": true], "reset": ["const": true], "truncate": ["const": true], "malformedJSON": ["const": true],
                "reply": string, "noReply": ["const": true], "closeCode": ["type": "integer", "minimum": 1000, "maximum": 4999],
            ] as Object,
        ]
        let nameValue = array(object(["name": string, "value": string]))
        let har: Object = object(["log": object([
            "version": ["const": "1.2"], "creator": object(["name": string, "version": string]), "pages": array(["type": "object"]),
            "entries": array(object([
                "startedDateTime": ["type": "string", "format": "date-time"], "time": number,
                "request": object(["method": string, "url": string, "httpVersion": string, "headers": nameValue, "queryString": nameValue,
                                   "cookies": array(["type": "object"]), "headersSize": integer, "bodySize": integer,
                                   "postData": object(["mimeType": string, "text": string])],
                                  required: ["method", "url", "httpVersion", "headers", "queryString", "cookies", "headersSize", "bodySize"]),
                "response": object(["status": integer, "statusText": string, "httpVersion": string, "headers": nameValue,
                                    "cookies": array(["type": "object"]),
                                    "content": object(["size": integer, "mimeType": string, "text": string, "encoding": ["const": "base64"]],
                                                      required: ["size", "mimeType"]),
                                    "redirectURL": string, "headersSize": integer, "bodySize": integer]),
                "cache": ["type": "object"], "timings": object(["send": number, "wait": number, "receive": number]), "comment": string,
            ], required: ["startedDateTime", "time", "request", "response", "cache", "timings"])),
        ])])
        let systemName: Object = ["type": "string", "enum": strings(systems.names)]
        var schemas: Object = [
            "VaporError": object(["error": ["const": true], "reason": string]),
            "AdminError": object(["error": string]),
            "Health": object(["status": ["const": "ok"]]),
            "SMS": object(["phone": string, "text": string, "code": nullableString, "sentAt": ["type": "string", "format": "date-time"]]),
            "Email": object(["to": string, "subject": string, "body": string, "link": nullableString, "sentAt": ["type": "string", "format": "date-time"]]),
            "JournalEntry": [
                "type": "object",
                "required": ["id", "at", "system", "clientIp", "method", "path", "query", "status", "durationMs", "requestHeaders", "requestBody", "responseBody", "hint"],
                "properties": [
                    "id": integer, "at": ["type": "string", "format": "date-time"], "system": nullableString,
                    "clientIp": ["type": "string", "description": "The peer's IP address (127.0.0.1, ::1)."],
                    "method": ["type": "string", "description": "The HTTP method, or WS for a WebSocket message."],
                    "path": ["type": "string", "description": "The request path; for a WebSocket message its type."],
                    "query": string, "status": ["type": ["integer", "null"], "description": "Sent status; null when closed or reset; 101 for WebSocket messages."],
                    "durationMs": number, "requestHeaders": ["type": "object", "additionalProperties": string],
                    "requestBody": string, "responseBody": string, "hint": nullableString, "truncated": ["const": true],
                    "fault": object(["id": integer, "action": action]),
                ] as Object,
            ] as Object,
            "HAR": har,
            "FaultAction": action,
            "FaultRuleInput": [
                "type": "object", "required": ["path", "action"],
                "properties": ["method": string, "path": string, "system": systemName,
                               "times": ["type": "integer", "minimum": 1], "action": ref("FaultAction")] as Object,
            ] as Object,
            "FaultRule": object(["id": integer, "method": nullableString, "path": string, "system": ["type": ["string", "null"]],
                                 "times": nullableInt, "remaining": nullableInt, "action": ref("FaultAction")]),
            "Clock": object(["now": ["type": "string", "format": "date-time"], "offsetSeconds": number]),
            "ClockAdvance": object(["advanceSeconds": ["type": "number", "exclusiveMinimum": 0]]),
            "TokenControl": ["type": "object", "properties": ["system": ["type": ["string", "null"], "enum": .array(systems.names.map(JSONValue.string) + [.null])] as Object,
                                                          "token": nullableString]] as Object,
            "Affected": object(["affected": ["type": "integer", "minimum": 0]]),
            "AccountSummary": object([
                "id": string, "login": string, "email": string, "phone": string, "name": string, "isConfirmed": boolean,
                "sessions": array(object(["token": string, "expiresAt": string], required: ["token"])), "note": string,
            ], required: []),
        ]
        for case let system as OpenAPIDocumented.Type in systems.types {
            guard case .object(let members) = system.openAPISchemas else { continue }
            for member in members where schemas[member.key] == nil { schemas.set(member.key, member.value) }
        }
        return schemas
    }
}
