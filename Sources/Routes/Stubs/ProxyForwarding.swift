import HTTPServer

/// Sends a request on to an upstream and holds the client's answer until the upstream's arrives
/// (a deferred answer: no thread waits). Used by proxying stubs and by `--proxy-all`.
///
/// The forwarded request keeps the method, the URL (after `prefixToRemove`, under the base URL's
/// path), the body and the end-to-end fields; `Host` becomes the upstream's unless
/// `preserveHost` (WireMock's `--preserve-host-header`). The answer keeps the upstream's status,
/// reason, end-to-end fields and body byte for byte; a redirect is passed back, not followed. An
/// upstream that refuses, resets or sends nonsense is a 502, one that times out a 504, each with
/// an `X-Mock-Hint` naming the upstream, and logged.
enum ProxyForwarding {
    /// What a proxy answer adds to the upstream's: the stub's own fields (as WireMock adds them).
    package struct Extras: Sendable {
        var additionalRequestHeaders: [(String, String)] = []
        var prefixToRemove: String?
        package var responseHeaders: [(String, String)] = []
        package var preserveHost = false
        /// Told about each exchange the upstream answered (recordings, snapshots).
        package var recorder: StubRecorder?
        package init() {}
    }

    /// The held answer for `request`; `context` carries the promise.
    package static func forward(_ request: HTTPRequest, to upstream: Upstream, extras: Extras, context: inout RequestContext) -> HTTPResponse {
        let outbound = outboundRequest(request, to: upstream, extras: extras)
        guard let client = OutboundClient.current else {
            // Only a request answered outside an event loop (an in-process call) gets here.
            return failure(.badGateway, upstream: upstream, outbound: outbound, reason: "no event loop on this thread to send it from", extras: extras)
        }
        let settings = client.settings
        let target = "\(upstream)\(outbound.target)"
        // The client's own deadlines answer first; the promise's is a backstop a second later.
        let limit = OutboundClient.nanos(settings.connectTimeout) &+ OutboundClient.nanos(settings.readTimeout) &+ 1_000_000_000
        let promise = DeferredResponse(timeoutNanos: limit, onTimeout: {
            failure(.gatewayTimeout, upstream: upstream, outbound: outbound, reason: "no answer in time", extras: extras)
        })
        let logger = client.logger
        client.send(outbound) { result in
            switch result {
            case .success(let answer):
                extras.recorder?.capture(RecordedExchange(request: StubRequest(request), status: answer.status, headers: answer.headers, body: answer.body))
                var response = HTTPResponse(status: HTTPStatus(code: answer.status, reasonPhrase: answer.reason.isEmpty ? nil : answer.reason),
                                            headers: answer.headers, body: answer.body)
                for (name, value) in extras.responseHeaders { response.headers.add(name, value) }
                response.outsideFields = true
                promise.complete(response)
            case .failure(let failure):
                let status: HTTPStatus = failure.kind == .timedOut ? .gatewayTimeout : .badGateway
                logger.warning("proxy \(request.method.rawValue) \(target): \(failure.detail)")
                promise.complete(ProxyForwarding.failure(status, upstream: upstream, outbound: outbound, reason: failure.detail, extras: extras))
            }
        }
        // The provisional answer carries the stub's fields: the journal reads which stub answered from it.
        var provisional = HTTPResponse.empty(.badGateway)
        for (name, value) in extras.responseHeaders { provisional.headers.add(name, value) }
        return context.deferring(provisional, until: promise)
    }

    /// The request as the upstream gets it.
    static func outboundRequest(_ request: HTTPRequest, to upstream: Upstream, extras: Extras) -> OutboundRequest {
        var url = request.target
        if let prefix = extras.prefixToRemove, !prefix.isEmpty, url.hasPrefix(prefix) { url = String(url.dropFirst(prefix.count)) }
        if !url.hasPrefix("/") { url = "/" + url }
        var headers = HopByHop.endToEnd(request.headers)
        headers.remove("Host")
        for (name, value) in extras.additionalRequestHeaders { headers.set(name, value) }
        let host = extras.preserveHost ? request.headers["Host"] : nil
        return OutboundRequest(upstream: upstream, method: request.method.rawValue, target: upstream.basePath + url,
                               headers: headers, body: request.body, host: host)
    }

    static func failure(_ status: HTTPStatus, upstream: Upstream, outbound: OutboundRequest, reason: String, extras: Extras) -> HTTPResponse {
        let text = "proxy to \(upstream)\(outbound.target) failed: \(reason)"
        var response = HTTPResponse.text(status, text + "\n").hinted(StubProblem.ascii(text))
        for (name, value) in extras.responseHeaders where name.hasPrefix("Matched-Stub-") { response.headers.add(name, value) }
        return response
    }
}
