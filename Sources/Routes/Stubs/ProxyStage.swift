import HTTPServer

/// `--proxy-all URL`, and a running recording's target: the innermost stage. A request no stub
/// answered and no route has (any method, `OPTIONS` too) goes to the upstream; a known path keeps
/// its answer (a wrong method its 405), and the admin paths never leave. A recording proxies as
/// WireMock's lowest-priority proxy mapping would, but after the systems' routes too, so their
/// endpoints are never recorded. Without either the chain passes it by.
package struct ProxyStage: Stage {
    let proxy: ProxyAll?
    let router: Router
    let recorder: StubRecorder?

    package init(_ proxy: ProxyAll?, router: Router, recorder: StubRecorder? = nil) {
        var proxy = proxy
        proxy?.recorder = recorder
        self.proxy = proxy
        self.router = router
        self.recorder = recorder
    }

    /// Whether `--proxy-all` is set or a recording runs (else the chain may pass this stage by).
    package var isActive: Bool { proxy != nil || recorder?.isRecording == true }

    package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                        _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        // The route is looked up once more for it, paid only with --proxy-all or while recording.
        // A recording's target goes first: it is the one being recorded.
        let upstream = recorder?.target.map { ProxyAll(upstream: $0, preserveHost: proxy?.preserveHost ?? false, recorder: recorder) } ?? proxy
        guard let upstream, router.allowedMethods(forPath: request.path).isEmpty,
              let answer = upstream.answer(request, &context) else { return next(request, &context) }
        return answer
    }
}
