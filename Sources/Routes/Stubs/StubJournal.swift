#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// One journaled HTTP request as `/__admin/requests` shows it (the composition root reads them
/// from the same journal as `/__mock/requests`).
package struct StubLoggedRequest: Sendable {
    package var id: Int
    package var at: Date
    package var request: StubRequest
    package var clientIP: String
    /// The status sent; nil when the connection was closed instead.
    package var status: Int?
    package var responseBody: [UInt8]
    /// The stub that answered, if one did.
    package var stub: StubReference?
    /// Whether a stub or a system answered (false: the 404 nobody claimed).
    package var wasMatched: Bool

    package init(id: Int, at: Date, request: StubRequest, clientIP: String, status: Int?, responseBody: [UInt8],
                stub: StubReference?, wasMatched: Bool) {
        self.id = id
        self.at = at
        self.request = request
        self.clientIP = clientIP
        self.status = status
        self.responseBody = responseBody
        self.stub = stub
        self.wasMatched = wasMatched
    }

    /// The journal's id as a UUID (WireMock's ids are UUIDs): its last 12 digits are the id.
    var uuid: String {
        let hex = String(id, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// WireMock's `LoggedRequest`.
    func requestJSON(host: String?) -> JSONValue {
        var headers: [(key: String, value: JSONValue)] = []
        for field in request.headers {
            if let i = headers.firstIndex(where: { $0.key.lowercased() == field.name.lowercased() }) {
                switch headers[i].value {
                case .array(let values): headers[i].value = .array(values + [.string(field.value)])
                case let single: headers[i].value = .array([single, .string(field.value)])
                }
            } else {
                headers.append((key: field.name, value: .string(field.value)))
            }
        }
        var query: [(key: String, value: JSONValue)] = []
        for item in request.queryParameters {
            if let i = query.firstIndex(where: { $0.key == item.name }), case .array(let values)? = query[i].value["values"] {
                query[i].value = ["key": .string(item.name), "values": .array(values + [.string(item.value)])]
            } else {
                query.append((key: item.name, value: ["key": .string(item.name), "values": [.string(item.value)]]))
            }
        }
        var cookies: [(key: String, value: JSONValue)] = []
        for (name, value) in request.cookies { cookies.append((key: name, value: .string(value))) }
        let millis = (at.timeIntervalSince1970 * 1000).rounded(.down)
        return [
            "url": .string(request.url),
            "absoluteUrl": .string("http://" + (host ?? "localhost") + request.url),
            "method": .string(request.method),
            "clientIp": .string(clientIP),
            "headers": .object(headers),
            "cookies": .object(cookies),
            "browserProxyRequest": false,
            "loggedDate": .number(millis),
            "bodyAsBase64": .string(Base64.encode(request.body)),
            "body": .string(request.bodyText),
            "loggedDateString": .string(TemplateDate(millis: Int64((at.timeIntervalSince1970 * 1000).rounded(.down)), format: nil, zone: nil).text),
            "queryParams": .object(query),
        ]
    }

    /// WireMock's `ServeEvent`: the request, the response and the mapping that answered
    /// (`stubMapping`, WireMock's own field: its Java client refuses a field it does not know).
    func serveEventJSON(mapping: StubMapping?) -> JSONValue {
        var event: JSONValue = [
            "id": .string(uuid),
            "request": requestJSON(host: request.headers["Host"]),
            "responseDefinition": ["status": status.map { .number(Double($0)) } ?? .null],
            "response": ["status": status.map { .number(Double($0)) } ?? .null, "body": .string(String(decoding: responseBody, as: UTF8.self))],
            "wasMatched": .bool(wasMatched),
        ]
        if stub != nil, let mapping { event = event.stubSetting("stubMapping", mapping.json) }
        return event
    }
}

/// Where `/__admin/requests` reads and clears the requests: the mock's one journal.
package protocol StubJournal: Sendable {
    /// The journaled HTTP requests, oldest first.
    func loggedRequests() -> [StubLoggedRequest]
    /// Forgets them (`DELETE /__admin/requests`, `POST /__admin/reset`).
    func clearRequests()
    /// Forgets the ones with these journal ids (`DELETE /__admin/requests/{id}`, `/requests/remove`).
    func removeRequests(ids: Set<Int>)
    /// True when nothing is journaled (`--journal-size 0`): WireMock's `requestJournalDisabled`.
    var isJournalDisabled: Bool { get }
}
