#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The journal as a HAR 1.2 document (`GET /__mock/requests.har`), for a browser's devtools or any
/// HAR viewer. It shows what the journal shows and never more: secrets redacted, bodies cut at
/// 4,096 bytes. Everything is formatted here, when exported; recording only kept references.
/// WebSocket messages are left out (they are not HTTP exchanges).
package enum JournalHAR {
    /// The document: `log.version "1.2"`, `log.creator` (mock-server and its version) and one
    /// entry per HTTP exchange, oldest first.
    package static func document(_ entries: [JournalEntry], reading: EntryReading) -> JSONValue {
        let shown = entries.filter { !$0.isWebSocket }.map { entry($0, reading: reading) }
        return ["log": [
            "version": "1.2",
            "creator": ["name": "mock-server", "version": .string(MockServerVersion.current)],
            "pages": [],
            "entries": .array(shown),
        ]]
    }

    /// One HAR entry: the request and response as the journal shows them, the time it took as `wait`.
    package static func entry(_ e: JournalEntry, reading: EntryReading) -> JSONValue {
        let ms = JSONValue.number(Double(e.durationNanos / 1000) / 1000)
        var object: JSONValue = [
            "startedDateTime": .string(milliseconds(e.at)),
            "time": ms,
            "request": request(e, reading: reading),
            "response": response(e, reading: reading),
            "cache": [:],
            "timings": ["send": 0, "wait": ms, "receive": 0],
        ]
        if e.truncated { object.set("comment", .string("bodies cut by the journal at \(JournalEntry.bodyLimit) bytes")) }
        return object
    }

    /// An ISO 8601 date-time with milliseconds, in UTC (`2027-01-15T08:00:00.123Z`).
    package static func milliseconds(_ date: Date) -> String {
        let seconds = ISO8601.string(date), t = date.timeIntervalSince1970
        // The nearest millisecond within the second shown (a Date near 2027 holds about 0.2 µs).
        let ms = ((t - t.rounded(.down)) * 1000).rounded()
        let digits = String(Int(min(max(ms, 0), 999)))
        return seconds.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    private static func request(_ e: JournalEntry, reading: EntryReading) -> JSONValue {
        let redaction = reading.redaction
        let query = redaction.form(e.query)
        // The request parser took only a Host made of host bytes: it goes into the URL as it is.
        let host = e.requestHeaders["Host"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        var object: JSONValue = [
            "method": .string(e.method),
            "url": .string("http://" + host + e.path + (query.isEmpty ? "" : "?" + query)),
            "httpVersion": "HTTP/1.1",
            "headers": headers(e.requestHeaders, redaction),
            "queryString": .array(FormDecoding.parseForm(query).map { ["name": .string($0.name), "value": .string($0.value)] }),
            "cookies": [],
            "headersSize": -1,
            "bodySize": JSONValue(e.requestCut ? -1 : e.requestBody.count),
        ]
        if !e.requestBody.isEmpty {
            object.set("postData", ["mimeType": .string(e.requestHeaders["Content-Type"] ?? ""), "text": .string(e.shownRequestBody(reading))])
        }
        return object
    }

    private static func response(_ e: JournalEntry, reading: EntryReading) -> JSONValue {
        let status = e.status ?? 0
        return [
            "status": JSONValue(status),
            "statusText": .string(e.status.map { HTTPStatus(code: $0).reasonPhrase } ?? ""),
            "httpVersion": "HTTP/1.1",
            "headers": headers(e.responseHeaders, reading.redaction),
            "cookies": [],
            "content": content(e, reading.redaction),
            "redirectURL": .string(e.responseHeaders["Location"] ?? ""),
            "headersSize": -1,
            "bodySize": JSONValue(e.responseCut ? -1 : e.responseBody.count),
        ]
    }

    /// The body as the journal shows it: text when it is UTF-8; otherwise its bytes in base64,
    /// unless redaction found a secret in them, when the redacted text is all there is to show.
    /// A gzip or deflate body is shown decoded, as HAR 1.2 and browsers hold it (its
    /// `Content-Encoding` stays among the headers; `compression` says how many bytes it saved).
    private static func content(_ e: JournalEntry, _ redaction: Redaction) -> JSONValue {
        let mime = e.responseHeaders["Content-Type"] ?? ""
        if let decoded = e.decodedResponseBody(limit: decodedLimit) {
            let whole = !e.responseCut && decoded.count < decodedLimit
            var object: JSONValue = ["size": JSONValue(decoded.count), "mimeType": .string(mime)]
            if whole { object.set("compression", JSONValue(decoded.count - e.responseBody.count)) }
            return shown(JournalEntry.shown(decoded), in: object, redaction)
        }
        // The body's whole size when the journal kept it whole (it may show only its start).
        let bytes = JournalEntry.shown(e.responseBody)
        let object: JSONValue = ["size": JSONValue(e.responseCut ? bytes.count : e.responseBody.count), "mimeType": .string(mime)]
        return shown(bytes, in: object, redaction)
    }

    /// How much of a compressed body is decoded to export it: its size when smaller (so
    /// `compression` can be given), else its start (what the journal shows is 4,096 bytes).
    private static let decodedLimit = 1 << 20

    /// `text` (and `encoding`) of a HAR content object.
    private static func shown(_ bytes: [UInt8], in content: JSONValue, _ redaction: Redaction) -> JSONValue {
        var object = content
        guard !bytes.isEmpty else { return object }
        let text = redaction.body(bytes, contentType: nil)
        if bytes.withUnsafeBufferPointer(UTF8Validator.isValid) || text != String(decoding: bytes, as: UTF8.self) {
            object.set("text", .string(text))
        } else {
            object.set("text", .string(Base64.encode(bytes)))
            object.set("encoding", "base64")
        }
        return object
    }

    /// Each field on its own, credentials masked as the journal masks them.
    private static func headers(_ fields: HTTPHeaders, _ redaction: Redaction) -> JSONValue {
        .array(fields.map { ["name": .string($0.name), "value": .string(redaction.header($0.name, $0.value))] })
    }
}
