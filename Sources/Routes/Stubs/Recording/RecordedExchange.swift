import HTTPServer

/// One proxied request and the upstream's answer, as the recorder keeps it.
struct RecordedExchange: Sendable {
    let request: StubRequest
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]
}
