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

/// What a mapping answers (WireMock's `response` object), checked when read.
struct StubResponse: Sendable {
    enum Body: Sendable {
        case none
        case bytes([UInt8])
        case template(StubTemplate)
        /// A file under `__files`, read when served (so edits show without a reload); its contents
        /// are a template too when the mapping is templated, as in WireMock.
        case file(StubTemplate, templated: Bool)
    }

    enum Delay: Sendable {
        case none
        case uniform(lower: Int, upper: Int)
        case lognormal(median: Double, sigma: Double)
    }

    enum Fault: String, Sendable {
        case EMPTY_RESPONSE, CONNECTION_RESET_BY_PEER, RANDOM_DATA_THEN_CLOSE, MALFORMED_RESPONSE_CHUNK
    }

    let status: Int
    let statusMessage: String?
    /// Name and value templates (a value is plain text unless the mapping is templated), the
    /// framing fields left out (`StubFraming`).
    let headers: [(String, StubTemplate)]
    /// The mapping's `Connection: close`: the connection is closed after this answer.
    let closesConnection: Bool
    let body: Body
    let fixedDelay: Int?
    let distribution: Delay
    let fault: Fault?
    /// `transformerParameters`, which a template reads as `{{parameters.x}}`.
    var parameters: JSONValue = .object([])
    /// `chunkedDribbleDelay`: the body sent in pieces over time.
    var dribble: Delivery.Dribble?
    /// The mapping sets `Content-Length` (left out of `headers`): the answer is framed by a
    /// length whatever `--use-chunked-encoding` says, as WireMock frames it.
    var givesLength = false
    /// `proxyBaseUrl` and its fields: the answer is the upstream's, with this mapping's headers and delay.
    let proxy: StubProxy?

    static let fields = ["status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName",
                         "fixedDelayMilliseconds", "delayDistribution", "fault", "transformers", "transformerParameters",
                         "proxyBaseUrl", "additionalProxyRequestHeaders", "proxyUrlPrefixToRemove", "chunkedDribbleDelay"]
    static let refused: [String: String] = [
        "removeProxyRequestHeaders": "removeProxyRequestHeaders is WireMock 3's and is not supported",
    ]
    /// The most pieces `chunkedDribbleDelay` may cut a body into (each is a held write).
    static let maxDribbleChunks = 10_000

    /// `{"numberOfChunks": N, "totalDuration": ms}`: N from 1 to 10,000, the duration within the delay cap.
    static func decodeDribble(_ value: JSONValue, at pointer: String) throws(StubProblem) -> Delivery.Dribble {
        let object = try StrictObject(value, at: pointer, what: "\"chunkedDribbleDelay\"")
        try object.allow(["numberOfChunks", "totalDuration"], unsupported: [:])
        guard let chunks = try object.int("numberOfChunks", in: 1...maxDribbleChunks), let total = try object.int("totalDuration", in: 0...maxDelayMs) else {
            throw StubProblem(pointer, "chunkedDribbleDelay needs \"numberOfChunks\" (1–\(maxDribbleChunks)) and \"totalDuration\" (0–\(maxDelayMs) ms)")
        }
        return Delivery.Dribble(pieces: chunks, totalNanos: UInt64(total) * 1_000_000)
    }

    /// The longest delay a mapping may ask for (the transport holds answers without a thread).
    static let maxDelayMs = 600_000

    /// Reads a `response` object. `filesRoot` is the `__files` folder (nil: `bodyFileName` refused).
    static func decode(_ value: JSONValue, at pointer: String, filesRoot: String?, templateAll: Bool = false) throws(StubProblem) -> StubResponse {
        let object = try StrictObject(value, at: pointer, what: "\"response\"")
        try object.allow(fields, unsupported: refused, wireMock: .responseDefinition)
        // `--global-response-templating`: every response is a template, as WireMock's flag makes it.
        var templated = templateAll
        if let transformers = object["transformers"] {
            guard case .array(let names) = transformers else { throw StubProblem(pointer + "/transformers", "\"transformers\" must be an array") }
            for (i, name) in names.enumerated() {
                guard name == .string("response-template") else {
                    throw StubProblem("\(pointer)/transformers/\(i)", "only the \"response-template\" transformer is supported")
                }
                templated = true
            }
        }
        func template(_ text: String, _ at: String) throws(StubProblem) -> StubTemplate {
            templated ? try StubTemplate(text, at: at) : StubTemplate(plain: text)
        }
        let status = try object.int("status", in: 100...999) ?? 200
        let statusMessage = try object.string("statusMessage")
        if let statusMessage, StubFraming.breaksLine(statusMessage) {
            throw StubProblem(pointer + "/statusMessage", "\"statusMessage\" may not contain CR, LF or NUL")
        }
        var headers: [(String, StubTemplate)] = []
        var closesConnection = false, givesLength = false
        for (name, values) in try object.map("headers", { name, value, at throws(StubProblem) -> [JSONValue] in
            if !HTTPHeaderName.isValid(name) { throw StubProblem(at, "\"\(name)\" is not a valid header name") }
            if case .array(let items) = value { return items }
            return [value]
        }) {
            for v in values {
                guard case .string(let text) = v else { throw StubProblem(pointer + "/headers/" + name, "a header value must be a string or an array of strings") }
                if StubFraming.breaksLine(text) { throw StubProblem(pointer + "/headers/" + name, "a header value may not contain CR, LF or NUL") }
                let value = try template(text, pointer + "/headers/" + name)
                switch StubFraming.role(of: name) {
                case .field: headers.append((name, value))
                case .framing: if name.equalsIgnoringASCIICase("Content-Length") { givesLength = true }
                case .connection: if StubFraming.asksToClose(text) { closesConnection = true }
                }
            }
        }
        let bodyKeys = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { object[$0] != nil }
        if bodyKeys.count > 1 { throw StubProblem(pointer + "/" + bodyKeys[1], "give one of body, jsonBody, base64Body, bodyFileName, not \(bodyKeys.joined(separator: " and "))") }
        var body = Body.none
        switch bodyKeys.first {
        case "body"?:
            guard let text = try object.string("body") else { break }
            let t = try template(text, pointer + "/body")
            body = t.isPlain ? .bytes(Array(text.utf8)) : .template(t)
        case "jsonBody"?:
            let text = object["jsonBody"]?.jsonText ?? "null"
            let t = try template(text, pointer + "/jsonBody")
            body = t.isPlain ? .bytes(Array(text.utf8)) : .template(t)
        case "base64Body"?:
            guard let text = try object.string("base64Body"), let bytes = Base64.decode(text) else {
                throw StubProblem(pointer + "/base64Body", "\"base64Body\" must be a base64 string")
            }
            body = .bytes(bytes)
        case "bodyFileName"?:
            guard let name = try object.string("bodyFileName") else { break }
            // A templated name is read as a template first, so a helper this server lacks is the reason
            // given; its path is checked outside `{{…}}` here, and as rendered when served.
            let file = try template(name, pointer + "/bodyFileName")
            guard filesRoot != nil else {
                throw StubProblem(pointer + "/bodyFileName", "bodyFileName needs a mappings folder: start with --mappings DIR and put the file in DIR/__files")
            }
            let path = file.isPlain ? name : file.literalText
            if path.hasPrefix("/") || path.split(separator: "/").contains("..") || path.contains("\\") || name.isEmpty {
                throw StubProblem(pointer + "/bodyFileName", "bodyFileName \"\(name)\" must be a relative path inside __files (no leading /, no ..)")
            }
            body = .file(file, templated: templated)
        default: break
        }
        let fixed = try object.int("fixedDelayMilliseconds", in: 0...maxDelayMs)
        var distribution = Delay.none
        if let d = object["delayDistribution"] { distribution = try decodeDistribution(d, at: pointer + "/delayDistribution").delay }
        var fault: Fault?
        if let name = try object.string("fault") {
            guard let f = Fault(rawValue: name) else {
                throw StubProblem(pointer + "/fault", "fault must be EMPTY_RESPONSE, CONNECTION_RESET_BY_PEER, RANDOM_DATA_THEN_CLOSE or MALFORMED_RESPONSE_CHUNK")
            }
            fault = f
        }
        let proxy = try StubProxy.decode(object, at: pointer, templated: templated)
        if proxy != nil {
            // The upstream's body and status are the answer: a mapping that also gives its own is refused, not half-served.
            for key in bodyKeys + (fault != nil ? ["fault"] : []) {
                throw StubProblem(pointer + "/" + key, "\"\(key)\" cannot go with \"proxyBaseUrl\": a proxied answer is the upstream's")
            }
        }
        var response = StubResponse(status: status, statusMessage: statusMessage, headers: headers, closesConnection: closesConnection,
                                    body: body, fixedDelay: fixed, distribution: distribution, fault: fault, proxy: proxy)
        response.givesLength = givesLength
        if let value = object["chunkedDribbleDelay"] {
            response.dribble = try decodeDribble(value, at: pointer + "/chunkedDribbleDelay")
            if proxy != nil { throw StubProblem(pointer + "/chunkedDribbleDelay", "\"chunkedDribbleDelay\" cannot go with \"proxyBaseUrl\" here") }
        }
        if let parameters = object["transformerParameters"] {
            guard case .object = parameters else { throw StubProblem(pointer + "/transformerParameters", "\"transformerParameters\" must be an object") }
            response.parameters = parameters
        }
        return response
    }

    /// A `delayDistribution` object (a mapping's or the global settings'), and the JSON that
    /// shows it back.
    static func decodeDistribution(_ value: JSONValue, at pointer: String) throws(StubProblem) -> (delay: Delay, json: JSONValue) {
        let dist = try StrictObject(value, at: pointer, what: "\"delayDistribution\"")
        switch try dist.string("type") {
        case "uniform"?:
            try dist.allow(["type", "lower", "upper"])
            guard let lower = try dist.int("lower", in: 0...maxDelayMs), let upper = try dist.int("upper", in: 0...maxDelayMs), lower <= upper else {
                throw StubProblem(pointer, "uniform needs \"lower\" ≤ \"upper\" (milliseconds)")
            }
            return (.uniform(lower: lower, upper: upper), ["type": "uniform", "lower": .number(Double(lower)), "upper": .number(Double(upper))])
        case "lognormal"?:
            try dist.allow(["type", "median", "sigma", "maxValue"], unsupported: ["maxValue": "maxValue (truncated lognormal) is not supported by WireMock 2.35"])
            guard let median = try dist.number("median"), let sigma = try dist.number("sigma"), median >= 0, median <= Double(maxDelayMs), sigma >= 0, sigma <= 10 else {
                throw StubProblem(pointer, "lognormal needs \"median\" (0–\(maxDelayMs) ms) and \"sigma\" (0–10)")
            }
            return (.lognormal(median: median, sigma: sigma), ["type": "lognormal", "median": .number(median), "sigma": .number(sigma)])
        default:
            throw StubProblem(pointer + "/type", "\"type\" must be \"uniform\" or \"lognormal\"")
        }
    }

    /// The delay before this answer, drawn now for a distribution: the mapping's own fixed delay,
    /// else the global one, plus a draw from its own distribution, else the global one (WireMock's
    /// `configureDelay`).
    func delayNanos(global: StubGlobalSettings = StubGlobalSettings()) -> UInt64 {
        var ms = Double(fixedDelay ?? global.fixedDelay ?? 0)
        let drawn: Delay
        if case .none = distribution { drawn = global.distribution } else { drawn = distribution }
        switch drawn {
        case .none: break
        case .uniform(let lower, let upper): ms += Double(Int.random(in: lower...upper))
        case .lognormal(let median, let sigma):
            // Box–Muller: a standard normal draw, then median · e^(σ·z).
            let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1), u2 = Double.random(in: 0..<1)
            let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            ms += median * exp(sigma * z)
        }
        return UInt64(min(Double(StubResponse.maxDelayMs), max(0, ms)) * 1_000_000)
    }

    /// The answer to `request`, its templates rendered within `limits`; `filesRoot` holds
    /// `bodyFileName` files; `stub` (the mapping's name or id) is what hints name; `global` holds
    /// the delay of `PUT /__admin/settings`. Its delay,
    /// fault and `Connection: close` go into `delivery`.
    func response(to request: StubRequest, now: Date, filesRoot: String?, limits: StubLimits, stub: String,
                  global: StubGlobalSettings = StubGlobalSettings(), delivery: inout Delivery) -> HTTPResponse {
        var response = HTTPResponse(status: HTTPStatus(code: status, reasonPhrase: statusMessage))
        // The mapping's fields are checked once more as they are written, whatever adds to them.
        response.outsideFields = true
        // Its fields and the two the store adds (Matched-Stub-Id, -Name): one allocation, not a growth per field.
        response.headers.reserveCapacity(headers.count + 2)
        var scope = StubRenderScope(request, now: now)
        if case .object(let members) = parameters, !members.isEmpty { scope.parameters = TemplateValue(json: parameters) }
        var dropped: [String] = []
        do throws(StubRenderFailure) {
            for (name, value) in headers {
                // Plain text was refused at decode if it held CR, LF or NUL.
                if let text = value.plainText {
                    response.headers.add(name, text)
                    continue
                }
                let bytes = try value.render(&scope, limit: limits.maxBodyBytes)
                // A request's CR or LF must never become a header line of its own (response
                // splitting): the field is left out, and the hint names it, never its value.
                if bytes.contains(where: StubFraming.breaksLine) { dropped.append(name); continue }
                response.headers.add(name, String(decoding: bytes, as: UTF8.self))
            }
            switch body {
            case .none: break
            case .bytes(let bytes): response.body = bytes
            case .template(let t): response.body = try t.render(&scope, limit: limits.maxBodyBytes)
            case .file(let name, let templated):
                let file: String
                if let plain = name.plainText { file = plain } else { file = String(decoding: try name.render(&scope, limit: limits.maxBodyBytes), as: UTF8.self) }
                guard let root = filesRoot else {
                    return HTTPResponse.text(.internalServerError, "bodyFileName \(file) is not a readable file in __files\n")
                        .hinted(StubProblem.ascii("the mapping's bodyFileName \(file) needs a mappings folder (--mappings DIR)"))
                }
                switch StubBodyFile.read(file, in: root) {
                case .success(let bytes) where templated:
                    // Read when served, so parsed when served: a helper this server lacks is a 500
                    // saying so, never the file's text sent as if it had been rendered.
                    let contents: StubTemplate
                    do throws(StubProblem) {
                        contents = try StubTemplate(String(decoding: bytes, as: UTF8.self), at: "/__files/" + file)
                    } catch {
                        let reason = "stub \(stub): bodyFileName \(file) is a template this server cannot render: \(error.detail)"
                        return HTTPResponse.text(.internalServerError, reason + "\n").hinted(StubProblem.ascii(reason))
                    }
                    response.body = try contents.render(&scope, limit: limits.maxBodyBytes)
                case .success(let bytes): response.body = bytes
                case .failure(let missing):
                    return HTTPResponse.text(.internalServerError, "bodyFileName \(file) is not a readable file in __files\n")
                        .hinted(StubProblem.ascii(missing.hint))
                }
            }
        } catch {
            let reason = "stub \(stub): \(error.reason)"
            return HTTPResponse.text(.internalServerError, reason + "\n").hinted(StubProblem.ascii(reason))
        }
        if !dropped.isEmpty {
            let list = dropped.joined(separator: ", ")
            response = response.hinted(StubProblem.ascii("stub \(stub): header \(list) left out: its rendered value held CR, LF or NUL"))
        }
        var fromFile = false
        if case .file = body { fromFile = true }
        response.chunked = limits.chunkedEncoding.chunks(fromFile: fromFile, givesLength: givesLength)
        if closesConnection { delivery.closesConnection = true }
        if let fault { apply(fault, to: &response, &delivery) }
        let delay = delayNanos(global: global)
        if delay > 0 { delivery.delayNanos = delay }
        if let dribble { delivery.dribble = dribble }
        return response
    }

    private func apply(_ fault: Fault, to response: inout HTTPResponse, _ delivery: inout Delivery) {
        switch fault {
        case .EMPTY_RESPONSE: delivery.action = .close
        case .CONNECTION_RESET_BY_PEER: delivery.action = .reset
        case .RANDOM_DATA_THEN_CLOSE:
            response.body = (0..<1024).map { _ in UInt8.random(in: 0...255) }
            delivery.action = .raw
        case .MALFORMED_RESPONSE_CHUNK:
            // A 200 with a chunked body whose chunk size line is garbage, then close (as WireMock sends).
            response.body = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlskdu018973t09sylgasjkfg1][]'./.sdlv".utf8)
            delivery.action = .raw
        }
    }
}

extension StubTemplate {
    /// Text that is never rendered as a template.
    init(plain text: String) { self.init(parts: [.text(text)]) }
    init(parts: [Part]) {
        self.parts = parts
        plainText = StubTemplate.plainText(of: parts)
    }
}

/// RFC 9110 token characters, for header names from a mapping.
enum HTTPHeaderName {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }
}
