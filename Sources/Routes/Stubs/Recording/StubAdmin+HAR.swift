import HTTPServer

/// A HAR 1.2 document imported as stubs (`POST /__admin/mappings/import-har`): what a browser's
/// devtools ("Save all as HAR"), Charles or this server's `GET /__mock/requests.har` wrote, each
/// HTTP entry with an answer made into a mapping as the recorder makes one (scenarios for repeats,
/// persistent when there is a mappings folder).
extension StubAdmin {
    /// `POST /__admin/mappings/import-har`: the mappings made, as `/__admin/recordings/stop` answers.
    package var importHARHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            let exchanges: [RecordedExchange]
            do throws(StubProblem) {
                exchanges = try StubAdmin.harExchanges(try StubAdmin.parse(request.body).get())
            } catch {
                return error.response
            }
            var spec = RecordSpec()
            spec.persist = admin.store.files != nil
            return admin.recorded(exchanges, spec: spec)
        }
    }

    /// The exchanges of a HAR document's entries; an entry without an answer (status 0: blocked or
    /// failed in the browser) or a WebSocket's (101) is left out. Throws, with the entry's pointer,
    /// for what is not HAR.
    static func harExchanges(_ document: JSONValue) throws(StubProblem) -> [RecordedExchange] {
        guard case .array(let entries)? = document["log"]?["entries"] else {
            throw StubProblem("/log/entries", "not a HAR document: it needs log.entries, an array (HAR 1.2)")
        }
        var exchanges: [RecordedExchange] = []
        for (i, entry) in entries.enumerated() {
            let at = "/log/entries/\(i)"
            guard let method = entry["request"]?["method"]?.string, !method.isEmpty, let url = entry["request"]?["url"]?.string else {
                throw StubProblem(at + "/request", "each entry needs request.method and request.url")
            }
            guard case .number(let code)? = entry["response"]?["status"], code == code.rounded(), code >= 0, code <= 999 else {
                throw StubProblem(at + "/response/status", "each entry needs response.status, a number")
            }
            if code == 0 || code == 101 { continue }
            guard let status = Int(exactly: code), status >= 100 else {
                throw StubProblem(at + "/response/status", "a status is 100 to 999, not \(code)")
            }
            let target: String
            do throws(Upstream.Invalid) { target = try Upstream.split(url: url).1 } catch {
                throw StubProblem(at + "/request/url", error.reason)
            }
            var headers = HTTPHeaders()
            if case .array(let fields)? = entry["response"]?["headers"] {
                for field in fields {
                    // HTTP/2 pseudo-fields (`:status`) are no header of an HTTP/1.1 answer; a HAR's
                    // content is the decoded body (HAR 1.2), so its coding no longer applies.
                    guard let name = field["name"]?.string, let value = field["value"]?.string, !name.hasPrefix(":"),
                          !name.equalsIgnoringASCIICase("Content-Encoding") else { continue }
                    headers.add(name, value)
                }
            }
            let content = entry["response"]?["content"]
            let text = content?["text"]?.string ?? ""
            let body: [UInt8]
            if content?["encoding"]?.string == "base64" {
                guard let bytes = Base64.decode(text) else { throw StubProblem(at + "/response/content/text", "content.text is not base64 as encoding says") }
                body = bytes
            } else {
                body = Array(text.utf8)
            }
            let requestBody = Array((entry["request"]?["postData"]?["text"]?.string ?? "").utf8)
            let request = StubRequest(method: method, url: target, headers: HTTPHeaders(), body: requestBody)
            exchanges.append(RecordedExchange(request: request, status: status, headers: headers, body: body))
        }
        guard !exchanges.isEmpty else { throw StubProblem("/log/entries", "the HAR document has no entry with an answer") }
        return exchanges
    }
}
