/// Wraps the answering of every plain HTTP request (404 and 405 included): it gets the request and
/// its context, and the rest of the responder, and may look at, replace or re-deliver the response
/// (the control plane's journal and faults). The route is already matched (the context names the
/// path's owner), so `next` answers that route; it must be called at most once, on the calling
/// thread. The context is the caller's, passed `inout`: what the middleware writes into it (a
/// delivery, a log level) reaches the transport.
package typealias Middleware = @Sendable (_ request: HTTPRequest, _ context: inout RequestContext,
                                         _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse
