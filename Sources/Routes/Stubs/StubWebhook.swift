#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// A webhook in a mapping's `postServeActions` (WireMock's webhooks extension): a request sent
/// after the answer, never delaying it, by the server's outbound client. Every field is a
/// template over `originalRequest.*` (no `transformers` needed), as the extension renders them.
struct StubWebhook: Sendable {
    enum Delay: Sendable {
        case none
        case fixed(Int)
        case uniform(lower: Int, upper: Int)
        case lognormal(median: Double, sigma: Double)
    }

    enum Body: Sendable {
        case none
        case text(StubTemplate)
        case bytes([UInt8])
    }

    let method: StubTemplate
    let url: StubTemplate
    let headers: [(String, StubTemplate)]
    let body: Body
    let delay: Delay

    static let fields = ["method", "url", "headers", "body", "base64Body", "delay"]

    /// `postServeActions` in either form real folders use: WireMock 3's list
    /// `[{"name": "webhook", "parameters": {…}}]` or the 2.x extension's map `{"webhook": {…}}`.
    static func decodeActions(_ value: JSONValue, at pointer: String) throws(StubProblem) -> [StubWebhook] {
        switch value {
        case .array(let items):
            var hooks: [StubWebhook] = []
            for (i, item) in items.enumerated() {
                let at = "\(pointer)/\(i)"
                let action = try StrictObject(item, at: at, what: "a post-serve action")
                try action.allow(["name", "parameters"])
                guard try action.string("name") == "webhook" else {
                    throw StubProblem(at + "/name", "only the \"webhook\" post-serve action is supported")
                }
                hooks.append(try decode(action["parameters"] ?? .object([]), at: at + "/parameters"))
            }
            return hooks
        case .object(let members):
            var hooks: [StubWebhook] = []
            for member in members {
                guard member.key == "webhook" else {
                    throw StubProblem(pointer + "/" + member.key, "only the \"webhook\" post-serve action is supported")
                }
                hooks.append(try decode(member.value, at: pointer + "/webhook"))
            }
            return hooks
        default:
            throw StubProblem(pointer, "\"postServeActions\" must be a list of {\"name\": \"webhook\", \"parameters\": {…}} or {\"webhook\": {…}}")
        }
    }

    /// One webhook's parameters.
    static func decode(_ value: JSONValue, at pointer: String) throws(StubProblem) -> StubWebhook {
        let object = try StrictObject(value, at: pointer, what: "a webhook's parameters")
        try object.allow(fields, unsupported: ["extraParameters": "webhook extraParameters ({{parameters.…}}) are not supported"])
        func template(_ text: String, _ at: String) throws(StubProblem) -> StubTemplate {
            // A Handlebars path this model lacks renders as nothing: the answer's fields are refused by name instead.
            if text.contains("{{"), text.contains("originalResponse") {
                throw StubProblem(at, "originalResponse.* is not supported in a webhook here yet: use originalRequest.*")
            }
            return try StubTemplate(originalRequestAsRequest(text), at: at)
        }
        let method = try template(try object.string("method") ?? "GET", pointer + "/method")
        if method.isPlain, !HTTPHeaderName.isValid(method.literalText) {
            throw StubProblem(pointer + "/method", "\"method\" must be an HTTP method such as POST")
        }
        guard let urlText = try object.string("url") else { throw StubProblem(pointer + "/url", "a webhook needs a \"url\"") }
        let url = try template(urlText, pointer + "/url")
        if url.isPlain {
            do throws(Upstream.Invalid) { _ = try Upstream.split(url: urlText) } catch { throw StubProblem(pointer + "/url", error.reason) }
        }
        var headers: [(String, StubTemplate)] = []
        for (name, values) in try object.map("headers", { name, value, at throws(StubProblem) -> [JSONValue] in
            if !HTTPHeaderName.isValid(name) { throw StubProblem(at, "\"\(name)\" is not a valid header name") }
            if case .array(let items) = value { return items }
            return [value]
        }) {
            for v in values {
                guard case .string(let text) = v else { throw StubProblem(pointer + "/headers/" + name, "a header value must be a string or an array of strings") }
                if StubFraming.breaksLine(text) { throw StubProblem(pointer + "/headers/" + name, "a header value may not contain CR, LF or NUL") }
                headers.append((name, try template(text, pointer + "/headers/" + name)))
            }
        }
        var body = Body.none
        if let text = try object.string("body") {
            if object["base64Body"] != nil { throw StubProblem(pointer + "/base64Body", "give one of body and base64Body") }
            body = .text(try template(text, pointer + "/body"))
        } else if let text = try object.string("base64Body") {
            guard let bytes = Base64.decode(text) else { throw StubProblem(pointer + "/base64Body", "\"base64Body\" must be a base64 string") }
            body = .bytes(bytes)
        }
        return StubWebhook(method: method, url: url, headers: headers, body: body, delay: try delay(object["delay"], at: pointer + "/delay"))
    }

    /// `{"type": "fixed", "milliseconds"}`, `{"type": "uniform", "lower", "upper"}` or `{"type": "lognormal", "median", "sigma"}`.
    private static func delay(_ value: JSONValue?, at pointer: String) throws(StubProblem) -> Delay {
        guard let value else { return .none }
        let d = try StrictObject(value, at: pointer, what: "\"delay\"")
        let most = StubResponse.maxDelayMs
        switch try d.string("type") {
        case "fixed"?:
            try d.allow(["type", "milliseconds"])
            guard let ms = try d.int("milliseconds", in: 0...most) else { throw StubProblem(pointer + "/milliseconds", "a fixed delay needs \"milliseconds\"") }
            return .fixed(ms)
        case "uniform"?:
            try d.allow(["type", "lower", "upper"])
            guard let lower = try d.int("lower", in: 0...most), let upper = try d.int("upper", in: 0...most), lower <= upper else {
                throw StubProblem(pointer, "uniform needs \"lower\" ≤ \"upper\" (milliseconds)")
            }
            return .uniform(lower: lower, upper: upper)
        case "lognormal"?:
            try d.allow(["type", "median", "sigma"])
            guard let median = try d.number("median"), let sigma = try d.number("sigma"), median >= 0, median <= Double(most), sigma >= 0, sigma <= 10 else {
                throw StubProblem(pointer, "lognormal needs \"median\" (0–\(most) ms) and \"sigma\" (0–10)")
            }
            return .lognormal(median: median, sigma: sigma)
        default:
            throw StubProblem(pointer + "/type", "\"type\" must be \"fixed\", \"uniform\" or \"lognormal\"")
        }
    }

    /// `originalRequest.x` inside `{{…}}` read as this server's `request.x` (the webhook's model
    /// names the request that way); text outside the braces is left as it is.
    static func originalRequestAsRequest(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { out += rest[open.lowerBound...]; return out }
            out += rest[open.lowerBound..<close.lowerBound].replacing("originalRequest.", with: "request.")
            out += "}}"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The delay drawn now, in nanoseconds.
    func delayNanos() -> UInt64 {
        let ms: Double
        switch delay {
        case .none: ms = 0
        case .fixed(let n): ms = Double(n)
        case .uniform(let lower, let upper): ms = Double(Int.random(in: lower...upper))
        case .lognormal(let median, let sigma):
            let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1), u2 = Double.random(in: 0..<1)
            ms = median * exp(sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
        }
        return UInt64(min(Double(StubResponse.maxDelayMs), max(0, ms)) * 1_000_000)
    }

    /// The request to send for `request`, or why there is none (a field rendered to nonsense).
    func outbound(for request: StubRequest, now: Date, limits: StubLimits) -> Result<OutboundRequest, StubProblem> {
        var scope = StubRenderScope(request, now: now)
        do throws(StubRenderFailure) {
            let method = String(decoding: try self.method.render(&scope, limit: 64), as: UTF8.self)
            guard HTTPHeaderName.isValid(method) else {
                return .failure(StubProblem("/method", "rendered to \"\(StubProblem.ascii(method))\", not an HTTP method"))
            }
            let urlText = String(decoding: try url.render(&scope, limit: 8192), as: UTF8.self)
            let upstream: Upstream, target: String
            do throws(Upstream.Invalid) { (upstream, target) = try Upstream.split(url: urlText) } catch { return .failure(StubProblem("/url", error.reason)) }
            if target.utf8.contains(where: { $0 <= 32 || $0 >= 127 }) { return .failure(StubProblem("/url", "rendered URL holds a space or a control character")) }
            var fields = HTTPHeaders()
            for (name, value) in headers {
                let bytes = try value.render(&scope, limit: limits.maxBodyBytes)
                if bytes.contains(where: StubFraming.breaksLine) { return .failure(StubProblem("/headers/" + name, "rendered value holds CR, LF or NUL")) }
                fields.add(name, String(decoding: bytes, as: UTF8.self))
            }
            var bytes: [UInt8] = []
            switch body {
            case .none: break
            case .text(let t): bytes = try t.render(&scope, limit: limits.maxBodyBytes)
            case .bytes(let b): bytes = b
            }
            return .success(OutboundRequest(upstream: upstream, method: method, target: target, headers: HopByHop.endToEnd(fields), body: bytes))
        } catch {
            return .failure(StubProblem("/", error.reason))
        }
    }
}
