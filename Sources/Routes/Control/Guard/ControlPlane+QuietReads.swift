import HTTPServer

extension ControlPlane {
    /// An admin answer's log level: a test polling the outbox (or the console probing with
    /// OPTIONS) would fill the info log, so reads that worked are debug; changes and refusals stay
    /// at info.
    static func quietAdminRead(_ response: HTTPResponse, to request: HTTPRequest, in context: inout RequestContext) {
        guard AdminGuard.isSafe(request.method) && response.status.code < 400 else { return }
        context.logLevel = .debug
    }
}
