/// Wraps the answering of every plain HTTP request (404 and 405 included): it gets the request and
/// its context, and the rest of the responder, and may look at, replace or re-deliver the response
/// (the control plane's journal and faults). `next` must be called at most once, on the calling thread.
public typealias Middleware = @Sendable (_ request: HTTPRequest, _ context: RequestContext,
                                         _ next: (HTTPRequest, RequestContext) -> HTTPResponse) -> HTTPResponse
