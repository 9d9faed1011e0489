import HTTPServer
import EmulationKit
import MockAdminWire

/// What the fault stage does with a rule that fired: the answer it stands for, and the report.
extension ControlPlane {
    /// An HTTP fault: a substitute answer (the handler does not run), or the real one re-delivered.
    package func apply(_ action: FaultAction, to request: HTTPRequest, in context: inout RequestContext,
                       _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        switch action {
        case .delay(let ms):
            response = next(request, &context)
            context.delivery.delayNanos = UInt64(ms) * 1_000_000
        case .respond(let status, let body, let headers):
            response = HTTPResponse(status: HTTPStatus(code: status), body: Array((body ?? "").utf8))
            if let body, !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
                response.headers.set("Content-Type", JSONValue.parse(body) == nil ? HTTPResponse.textContentType : HTTPResponse.jsonContentType)
            }
            for field in action.sortedHeaders(headers) { response.headers.add(field.name, field.value) }
            // A fault's fields come from a test: the encoder checks them again (defence in depth).
            response.outsideFields = true
        case .close:
            response = .empty(.internalServerError)
            context.delivery.action = .close
        case .reset:
            response = .empty(.internalServerError)
            context.delivery.action = .reset
        case .truncate:
            response = next(request, &context)
            context.delivery.action = .truncate
        case .malformedJSON:
            response = next(request, &context)
            // Half the real body and a tail no JSON parser accepts, whatever the half ends in.
            response.body = Array(response.body.prefix(response.body.count / 2)) + Array("<<mock fault: malformed JSON".utf8)
        case .reply, .noReply, .closeCode:
            // Refused when the rule is posted; answer normally if one slipped through.
            response = next(request, &context)
        }
        return response
    }

    /// Each fault that fires is logged and published.
    func reportFired(_ rule: FaultRule, method: String, path: String, system: String?) {
        logger.info("fault \(rule.id) fired on \(method) \(path): \(rule.action.logText)\(rule.remaining.map { " (\($0) left)" } ?? "")")
        let data = rule.json
        events.publish(kind: "fault", at: clock.now()) {
            var d = data
            d.set("request", ["method": .string(method), "path": .string(path), "system": JSONValue(system)])
            return d
        }
        if rule.remaining == 0 { publish(.faultUsedUp) { data } }
    }
}
