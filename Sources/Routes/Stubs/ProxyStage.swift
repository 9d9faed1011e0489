import HTTPServer

/// `--proxy-all URL`: the innermost stage. A request no stub answered and no route has (any
/// method, `OPTIONS` too) goes to the upstream; a known path keeps its answer (a wrong method its
/// 405), and the admin paths never leave. Without `--proxy-all` the chain passes it by.
package struct ProxyStage: Stage {
    let proxy: ProxyAll?
    let router: Router

    package init(_ proxy: ProxyAll?, router: Router) {
        self.proxy = proxy
        self.router = router
    }

    /// Whether `--proxy-all` is set (else the chain may pass this stage by).
    package var isActive: Bool { proxy != nil }

    package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                        _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        // The route is looked up once more for it, paid only with --proxy-all.
        guard let proxy, router.allowedMethods(forPath: request.path).isEmpty,
              let answer = proxy.answer(request, &context) else { return next(request, &context) }
        return answer
    }
}
