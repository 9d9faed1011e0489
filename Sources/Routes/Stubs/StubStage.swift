import HTTPServer

/// WireMock-format stubs before the systems: a request a mapping matches is answered by the
/// stub (named in `answeredBy`), any other goes on to its route. While no stub is loaded, or
/// on a system's path while no stub could answer one, it costs one or two atomic loads.
/// Messages pass by.
package struct StubStage: Stage {
    @usableFromInline let stubs: StubStore

    package init(_ stubs: StubStore) { self.stubs = stubs }

    /// Whether a stub might answer a request `context` describes: with none, the chain may pass
    /// this stage by.
    package func mayAnswer(_ context: RequestContext) -> Bool {
        !stubs.isEmpty && (context.owner == nil || stubs.mayAnswerSystemPaths) && context.owner?.isAdmin != true
    }

    @inlinable package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                                   _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        // A system's path skips the stubs while none of them could answer it (one atomic load).
        guard !stubs.isEmpty, context.owner == nil || stubs.mayAnswerSystemPaths, context.owner?.isAdmin != true else {
            return next(request, &context)
        }
        return stubbed(request, &context, next)
    }

    /// A stub's answer when a mapping matches, else the route's.
    @usableFromInline
    func stubbed(_ request: HTTPRequest, _ context: inout RequestContext,
                 _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        stubs.answer(request, in: &context) ?? next(request, &context)
    }
}
