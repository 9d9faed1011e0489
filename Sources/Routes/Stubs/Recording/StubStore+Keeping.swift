import HTTPServer

/// A journal entry kept as a stub (`POST /__mock/requests/{id}/stub`): the recorder's mapping for
/// one exchange, added as `POST /__admin/mappings` adds one.
extension StubStore {
    /// Fields a kept answer leaves out besides the recorder's (`Content-Length`,
    /// `Transfer-Encoding`, hop-by-hop ones): the server writes its own.
    static let unkeptResponseFields: Set<String> = ["date", "server"]

    /// Adds and returns the mapping that answers `method` on `url` (path and query, `equalTo`)
    /// with this status, these end-to-end fields and this body (`body` when it is UTF-8, else
    /// `base64Body`). Persistent, as the recorder's mappings are, when the store has a mappings
    /// folder; kept in memory otherwise.
    package func keep(method: String, url: String, status: Int, headers: HTTPHeaders, body: [UInt8]) throws(StubChangeError) -> StubMapping {
        var spec = RecordSpec()
        spec.persist = files != nil
        spec.repeatsAsScenarios = false
        spec.textWhenUTF8 = true
        let fields = HTTPHeaders(headers.fields.filter { !StubStore.unkeptResponseFields.contains($0.name.lowercased()) })
        let request = StubRequest(method: method, url: url, headers: HTTPHeaders(), body: [])
        let exchange = RecordedExchange(request: request, status: status, headers: fields, body: body)
        guard let mapping = try record([exchange], spec: spec).first else {
            throw .refused(StubProblem("/", "the entry made no mapping"))
        }
        return mapping
    }
}

extension StubAdmin {
    /// The answer to keeping an exchange as a stub: 201 and the new mapping, or the stubs' refusal
    /// (WireMock's error shape with `X-Mock-Hint`).
    package static func keep(method: String, url: String, status: Int, headers: HTTPHeaders, body: [UInt8], in store: StubStore) -> HTTPResponse {
        do throws(StubChangeError) {
            return json(.created, try store.keep(method: method, url: url, status: status, headers: headers, body: body).json)
        } catch {
            return error.response
        }
    }
}
