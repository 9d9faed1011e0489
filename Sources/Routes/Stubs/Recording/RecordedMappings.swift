#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Proxied exchanges → mappings, as WireMock 2.35's `SnapshotStubMappingGenerator` and
/// `SnapshotStubMappingPostProcessor` write them: the request's `url` and `method`, the captured
/// fields as `equalTo`, the body's matcher (`RequestBodyAutomaticPatternFactory`); the answer's
/// status, fields (without `Content-Length`, `Transfer-Encoding` and hop-by-hop ones), body (a
/// gzip or deflate one decoded) as `body` (text) or `base64Body`, or in `__files`
/// (`extractBodyCriteria`); repeats dropped or
/// made a scenario; named after the path.
struct RecordedMappings {
    /// A mapping's JSON and, when its body goes to `__files`, the file's name and bytes.
    struct Recorded {
        var json: JSONValue
        var bodyFile: (name: String, bytes: [UInt8])?
    }

    static let excludedResponseFields = ["content-length", "transfer-encoding"]

    /// The most a compressed answer decodes to (the admin import's body limit, so what is recorded
    /// imports back); a larger one is kept compressed.
    static let maxDecodedBody = 64 << 20

    static func make(_ exchanges: [RecordedExchange], spec: RecordSpec, now: Date, newId: () -> String) -> [Recorded] {
        var out: [Recorded] = []
        var seen: [JSONValue] = []
        for exchange in exchanges {
            if let filter = spec.filter, !filter.matches(exchange.request, now: now) { continue }
            let request = requestPattern(exchange.request, spec: spec)
            if !spec.repeatsAsScenarios && seen.contains(request) { continue }
            seen.append(request)
            let id = newId()
            let name = StubMappingFile.safeName(exchange.request.path.replacingSlashes)
            let (response, bodyFile) = responseDefinition(exchange, spec: spec, name: name.isEmpty ? id : name + "-" + id)
            var members: [(key: String, value: JSONValue)] = [("id", .string(id))]
            if !name.isEmpty { members.append(("name", .string(name))) }
            members += [("request", request), ("response", response), ("uuid", .string(id))]
            if spec.persist { members.append(("persistent", .bool(true))) }
            out.append(Recorded(json: .object(members), bodyFile: bodyFile))
        }
        if spec.repeatsAsScenarios { scenarios(&out) }
        return out
    }

    /// WireMock's `ScenarioProcessor`: each request recorded more than once is a scenario
    /// `scenario-N-<path parts>` whose states follow the order the answers came in.
    private static func scenarios(_ mappings: inout [Recorded]) {
        var groups: [(request: JSONValue, indices: [Int])] = []
        for (i, m) in mappings.enumerated() {
            let request = m.json["request"] ?? .null
            if let g = groups.firstIndex(where: { $0.request == request }) { groups[g].indices.append(i) } else { groups.append((request, [i])) }
        }
        var index = 0
        for group in groups where group.indices.count > 1 {
            index += 1
            let url = group.request["url"]?.string ?? ""
            let path = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? url
            let name = "scenario-\(index)-" + path.split(separator: "/").joined(separator: "-")
            for (n, i) in group.indices.enumerated() {
                var json = mappings[i].json
                json = json.stubSetting("scenarioName", .string(name))
                json = json.stubSetting("requiredScenarioState", .string(n == 0 ? "Started" : "\(name)-\(n + 1)"))
                if n + 1 < group.indices.count { json = json.stubSetting("newScenarioState", .string("\(name)-\(n + 2)")) }
                mappings[i].json = json
            }
        }
    }

    static func requestPattern(_ request: StubRequest, spec: RecordSpec) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("url", .string(request.url)), ("method", .string(request.method))]
        var headers: [(key: String, value: JSONValue)] = []
        for (name, caseInsensitive) in spec.captureHeaders {
            guard let value = request.headers[name] else { continue }
            var matcher: [(key: String, value: JSONValue)] = [("equalTo", .string(value))]
            if caseInsensitive { matcher.append(("caseInsensitive", .bool(true))) }
            headers.append((name, .object(matcher)))
        }
        if !headers.isEmpty { members.append(("headers", .object(headers))) }
        if !request.body.isEmpty { members.append(("bodyPatterns", .array([bodyPattern(request, spec.bodyPattern)]))) }
        return .object(members)
    }

    /// The bytes as text when they are UTF-8, else nil. Not `String(validating:as:)`: it needs
    /// iOS 18 and macOS 15, and the library's floor is iOS 16 (scripts/darwin-availability.sh).
    static func utf8Text(_ bytes: [UInt8]) -> String? {
        guard bytes.withUnsafeBufferPointer(UTF8Validator.isValid) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The body's matcher (`RequestBodyAutomaticPatternFactory` for `auto`).
    static func bodyPattern(_ request: StubRequest, _ p: RecordBodyPattern) -> JSONValue {
        let text = RecordedMappings.utf8Text(request.body)
        let mime = (request.headers["Content-Type"] ?? "").split(separator: ";").first.map { $0.trimmingASCIISpaces().lowercased() }
        func equalToJson(_ t: String) -> JSONValue {
            .object([("equalToJson", .string(t)), ("ignoreArrayOrder", .bool(p.ignoreArrayOrder)), ("ignoreExtraElements", .bool(p.ignoreExtraElements))])
        }
        func equalTo(_ t: String) -> JSONValue {
            p.caseInsensitive ? .object([("equalTo", .string(t)), ("caseInsensitive", .bool(true))]) : .object([("equalTo", .string(t))])
        }
        let binary: JSONValue = .object([("binaryEqualTo", .string(Base64.encode(request.body)))])
        guard let text else { return binary }
        switch p.kind {
        case .equalTo: return equalTo(text)
        case .equalToJson: return JSONValue.parse(text) == nil ? equalTo(text) : equalToJson(text)
        case .equalToXml: return .object([("equalToXml", .string(text))])
        case .auto:
            guard let mime, !mime.isEmpty else { return equalTo(text) }
            if mime.contains("json") { return JSONValue.parse(text) == nil ? equalTo(text) : equalToJson(text) }
            if mime.contains("xml") { return .object([("equalToXml", .string(text))]) }
            if mime == "multipart/form-data" { return .object([("anything", .string("anything"))]) }
            return isText(mime) ? equalTo(text) : binary
        }
    }

    /// WireMock's `ContentTypes.determineIsTextFromMimeType`.
    static func isText(_ mime: String?) -> Bool {
        guard let mime else { return false }
        return ["text", "json", "xml", "html", "yaml", "csv", "x-www-form-urlencoded"].contains { mime.contains($0) }
    }

    /// The answer as a response definition; `base` names its `__files` file when extracted.
    static func responseDefinition(_ exchange: RecordedExchange, spec: RecordSpec, name base: String) -> (JSONValue, (name: String, bytes: [UInt8])?) {
        var members: [(key: String, value: JSONValue)] = [("status", .number(Double(exchange.status)))]
        let mime = (exchange.headers["Content-Type"] ?? "").split(separator: ";").first.map { $0.trimmingASCIISpaces().lowercased() }
        // A gzip or deflate body is kept decoded and its Content-Encoding dropped, as WireMock keeps
        // a gzip one; another coding (br), or a body that does not decode, is kept as it came, with
        // its Content-Encoding, so replay sends the upstream's bytes as they were labelled.
        var body = exchange.body
        let coding = exchange.headers["Content-Encoding"]
        var decoded = false
        if let coding, !body.isEmpty, let plain = try? Inflate.decode(body, contentEncoding: coding, limit: maxDecodedBody) {
            body = plain
            decoded = true
        }
        let encoded = !decoded && (coding.map { !$0.equalsIgnoringASCIICase("identity") } ?? false)
        let text = encoded || !(spec.textWhenUTF8 || isText(mime)) ? nil : RecordedMappings.utf8Text(body)
        var bodyFile: (name: String, bytes: [UInt8])?
        if !body.isEmpty {
            let threshold = text != nil ? spec.extract?.text : spec.extract?.binary
            if let threshold, (text.map { $0.utf16.count } ?? body.count) > threshold {
                let file = base + "." + fileExtension(mime, url: exchange.request.path, body: body)
                bodyFile = (file, body)
                members.append(("bodyFileName", .string(file)))
            } else if let text {
                members.append(("body", .string(text)))
            } else {
                members.append(("base64Body", .string(Base64.encode(body))))
            }
        }
        var headers: [(key: String, value: JSONValue)] = []
        for field in HopByHop.endToEnd(exchange.headers) where !excludedResponseFields.contains(field.name.lowercased()) {
            if decoded && field.name.equalsIgnoringASCIICase("Content-Encoding") { continue }
            if let i = headers.firstIndex(where: { $0.key.equalsIgnoringASCIICase(field.name) }) {
                switch headers[i].value {
                case .array(let values): headers[i].value = .array(values + [.string(field.value)])
                default: headers[i].value = .array([headers[i].value, .string(field.value)])
                }
            } else {
                headers.append((field.name, .string(field.value)))
            }
        }
        if !headers.isEmpty { members.append(("headers", .object(headers))) }
        return (.object(members), bodyFile)
    }

    /// WireMock's `ContentTypes.determineFileExtension`, for the common types.
    static func fileExtension(_ mime: String?, url: String, body: [UInt8]) -> String {
        if let mime, !mime.isEmpty {
            if mime.contains("json") { return "json" }
            if mime.contains("xml") { return "xml" }
            if mime.contains("text") { return "txt" }
            let common = ["image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg",
                          "application/pdf": "pdf", "application/zip": "zip", "application/octet-stream": "bin"]
            if let ext = common[mime] { return ext }
        }
        if let last = url.split(separator: "/").last, let dot = last.lastIndex(of: ".") {
            let ext = StubMappingFile.safeName(String(last[last.index(after: dot)...]))
            if !ext.isEmpty { return ext }
        }
        if let text = RecordedMappings.utf8Text(body) {
            if JSONValue.parse(text) != nil { return "json" }
            if text.trimmingASCIISpaces().hasPrefix("<") { return "xml" }
            return "txt"
        }
        return "bin"
    }
}

extension String {
    /// `/` as `_`, as WireMock's `makeSafeNameFromUrl` starts.
    fileprivate var replacingSlashes: String { String(map { $0 == "/" ? "_" : $0 }) }
}
