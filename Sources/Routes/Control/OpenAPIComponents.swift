import Foundation

/// The named schemas of the OpenAPI document: each system's bodies and the admin API's.
extension OAS {
    static var schemas: Object {
        let address = object(["street": string, "city": string, "countryCode": string, "stateCode": string, "postalCode": string])
        let profileFields: [String: Object] = [
            "id": integer, "email": string, "firstName": string, "lastName": string, "birthday": string,
            "lastVisitLocationName": string, "lastVisitDate": string, "loyaltyStatusBanner": string, "address": address,
            "phoneNumber": string, "mobilePhoneNumber": string, "gender": string, "photo": string, "skySockSize": string,
            "emergencyContactName": string, "emergencyContactNumber": string, "external-token": string, "external-type": string,
        ]
        let part = object(["domainId": anyValue, "name": anyValue, "forfeit": anyValue, "isBanned": anyValue, "discount": anyValue])
        let musbookingUser = object([
            "id": string, "login": nullableString, "name": nullableString, "firstName": nullableString, "lastName": nullableString,
            "surName": nullableString, "phone": nullableString, "email": nullableString, "birthday": nullableString,
            "room": anyValue, "base": anyValue, "isConfirmed": boolean, "fcm": nullableString, "parts": array(part),
        ])
        let nullableInt: Object = ["type": ["integer", "null"]]
        let action: Object = [
            "type": "object",
            "description": "Exactly one of: delayMs; status (+ body, headers); close; reset; truncate; malformedJSON; for gateway rules delayMs, reply, noReply, closeCode.",
            "properties": [
                "delayMs": ["type": "integer", "minimum": 0, "maximum": 600000], "status": ["type": "integer", "minimum": 200, "maximum": 599],
                "body": string, "headers": ["type": "object", "additionalProperties": string],
                "close": ["const": true], "reset": ["const": true], "truncate": ["const": true], "malformedJSON": ["const": true],
                "reply": string, "noReply": ["const": true], "closeCode": ["type": "integer", "minimum": 1000, "maximum": 4999],
            ] as Object,
        ]
        let systemName: Object = ["type": "string", "enum": SystemRegistry.names]
        return [
            "VaporError": object(["error": ["const": true], "reason": string]),
            "RowsToken": object(["token": string]),
            "Row": object(["id": integer, "text": string]),
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
            "MusbookingUser": musbookingUser,
            "MusbookingLogin": object(["key": string, "token": string]),
            "MusbookingRegistered": object(["login": string, "password": string]),
            "MusbookingCategory": ["type": "object"] as Object,
            "RSSchoolSuccess": object(["state": ["const": "success"]]),
            "RSSchoolWrong": object(["wrong": array(["type": "string", "enum": ["login", "password"]])]),
            "RSSchoolSecure": object(["state": ["const": "success"], "title": string, "message": string]),
            "RSSchoolSecureError": object(["state": ["const": "error"]]),
            "RSSchoolError": object(["error": string]),
            "AdminError": object(["error": string]),
            "Health": object(["status": ["const": "ok"]]),
            "SMS": object(["phone": string, "text": string, "code": nullableString, "sentAt": ["type": "string", "format": "date-time"]]),
            "Email": object(["to": string, "subject": string, "body": string, "link": nullableString, "sentAt": ["type": "string", "format": "date-time"]]),
            "JournalEntry": [
                "type": "object",
                "required": ["id", "at", "system", "method", "path", "query", "status", "durationMs", "requestHeaders", "requestBody", "responseBody", "hint"],
                "properties": [
                    "id": integer, "at": ["type": "string", "format": "date-time"], "system": nullableString,
                    "method": ["type": "string", "description": "The HTTP method, or WS for a gateway message."],
                    "path": ["type": "string", "description": "The request path; for a gateway message its type."],
                    "query": string, "status": ["type": ["integer", "null"], "description": "Sent status; null when closed or reset; 101 for gateway messages."],
                    "durationMs": number, "requestHeaders": ["type": "object", "additionalProperties": string],
                    "requestBody": string, "responseBody": string, "hint": nullableString, "truncated": ["const": true],
                    "fault": object(["id": integer, "action": action]),
                ] as Object,
            ] as Object,
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
            "TokenControl": ["type": "object", "properties": ["system": ["type": ["string", "null"], "enum": SystemRegistry.names + [NSNull()]] as Object,
                                                          "token": nullableString]] as Object,
            "Affected": object(["affected": ["type": "integer", "minimum": 0]]),
            "AccountSummary": object([
                "id": string, "login": string, "email": string, "phone": string, "name": string, "isConfirmed": boolean,
                "sessions": array(object(["token": string, "expiresAt": string], required: ["token"])), "note": string,
            ], required: []),
        ]
    }
}
