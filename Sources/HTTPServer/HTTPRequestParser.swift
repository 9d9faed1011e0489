/// Incremental HTTP/1.1 request parser (RFC 9112) over bytes that arrive in arbitrary pieces.
///
/// The head is parsed only once it is complete (it stays in the caller's buffer until then);
/// body bytes are absorbed as they come, so the caller never buffers more than one head.
struct HTTPRequestParser {
    /// Bounds the parser enforces, taken from the server configuration.
    struct Limits {
        var maxHeaderBytes: Int
        var maxRequestLineBytes: Int
        var maxBodyBytes: Int
    }

    /// A request the parser cannot accept: the status to answer before closing.
    struct Failure: Error, Equatable {
        var status: HTTPStatus
        var reason: String
    }

    enum Event {
        /// More bytes are needed; everything offered was consumed or must be offered again.
        case needMore
        case request(HTTPRequest)
        case failure(Failure)
    }

    private enum State {
        case head
        case body(HTTPRequest, remaining: Int)
        case chunkSize(HTTPRequest)
        case chunkData(HTTPRequest, remaining: Int)
        case chunkDataEnd(HTTPRequest)
        case trailers(HTTPRequest)
    }

    private var state = State.head
    /// Bytes of the pending head already searched for its end, so a slow client costs no rescans.
    private var headScanned = 0
    /// Partial chunk-size or trailer line carried between reads.
    private var line: [UInt8] = []
    /// Set when a body is awaited after `Expect: 100-continue`; the connection sends `100 Continue` once.
    private(set) var continueRequested = false
    let limits: Limits
    var remoteAddress = ""

    init(limits: Limits) { self.limits = limits }

    /// True while part of a request (head or body) has been received but not the whole of it.
    var isMidRequest: Bool {
        if case .head = state { return headScanned > 0 }
        return true
    }

    mutating func acknowledgeContinue() { continueRequested = false }

    /// Parses from `bytes[offset...]`, advancing `offset` past what was consumed.
    /// In the head state nothing is consumed until the head is complete.
    mutating func next(_ bytes: UnsafeRawBufferPointer, offset: inout Int) -> Event {
        while true {
            switch state {
            case .head:
                return parseHead(bytes, offset: &offset)
            case .body(var request, let remaining):
                let n = min(remaining, bytes.count - offset)
                if n > 0 {
                    request.body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]))
                    offset += n
                }
                if remaining - n == 0 {
                    state = .head
                    return .request(request)
                }
                state = .body(request, remaining: remaining - n)
                return .needMore
            case .chunkSize(let request):
                guard let text = takeLine(bytes, offset: &offset, limit: 1024) else {
                    return line.count > 1024 ? .failure(Failure(status: .badRequest, reason: "chunk size line too long")) : .needMore
                }
                let sizeText = text.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
                guard let size = HTTPRequestParser.parseHex(sizeText) else {
                    return .failure(Failure(status: .badRequest, reason: "invalid chunk size"))
                }
                if size == 0 {
                    state = .trailers(request)
                } else {
                    guard size <= limits.maxBodyBytes - request.body.count else {
                        return .failure(Failure(status: .payloadTooLarge, reason: "request body larger than \(limits.maxBodyBytes) bytes"))
                    }
                    state = .chunkData(request, remaining: size)
                }
            case .chunkData(var request, let remaining):
                let n = min(remaining, bytes.count - offset)
                if n > 0 {
                    request.body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]))
                    offset += n
                }
                if remaining - n == 0 {
                    state = .chunkDataEnd(request)
                } else {
                    state = .chunkData(request, remaining: remaining - n)
                    return .needMore
                }
            case .chunkDataEnd(let request):
                // Exactly CRLF (or a bare LF) must follow the data; anything else fails at once.
                guard offset < bytes.count else { return .needMore }
                let b = bytes[offset]
                offset += 1
                if b == 13 && line.isEmpty {
                    line.append(13)
                } else if b == 10 {
                    line.removeAll(keepingCapacity: true)
                    state = .chunkSize(request)
                } else {
                    return .failure(Failure(status: .badRequest, reason: "chunk data not followed by CRLF"))
                }
            case .trailers(let request):
                // Trailer fields are read and dropped; an empty line ends the message.
                guard let text = takeLine(bytes, offset: &offset, limit: limits.maxHeaderBytes) else {
                    return line.count > limits.maxHeaderBytes ? .failure(Failure(status: .requestHeaderFieldsTooLarge, reason: "trailers too large")) : .needMore
                }
                if text.isEmpty {
                    state = .head
                    return .request(request)
                }
            }
        }
    }

    // MARK: - Head

    private mutating func parseHead(_ bytes: UnsafeRawBufferPointer, offset: inout Int) -> Event {
        let start = offset
        let available = bytes.count - start
        guard available > 0 else { return .needMore }
        // Tolerate empty lines before a request line (RFC 9112 §2.2).
        if headScanned == 0 {
            var s = start
            while s < bytes.count, bytes[s] == 13 || bytes[s] == 10 { s += 1 }
            if s > start { offset = s; return parseHead(bytes, offset: &offset) }
        }
        // Find the empty line that ends the head: "\r\n\r\n" or a bare "\n\n".
        var i = start + max(0, headScanned - 3)
        var end = -1
        var bodyStart = -1
        while i < bytes.count {
            if bytes[i] == 10 {
                if i + 1 < bytes.count, bytes[i + 1] == 10 { end = i; bodyStart = i + 2; break }
                if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 { end = i; bodyStart = i + 3; break }
            }
            i += 1
        }
        if end < 0 {
            headScanned = available
            if available > limits.maxHeaderBytes {
                if !containsNewline(bytes, from: start, count: min(available, limits.maxRequestLineBytes + 1)) && available > limits.maxRequestLineBytes {
                    return .failure(Failure(status: .uriTooLong, reason: "request line longer than \(limits.maxRequestLineBytes) bytes"))
                }
                return .failure(Failure(status: .requestHeaderFieldsTooLarge, reason: "request head larger than \(limits.maxHeaderBytes) bytes"))
            }
            if !containsNewline(bytes, from: start, count: min(available, limits.maxRequestLineBytes + 1)) && available > limits.maxRequestLineBytes {
                return .failure(Failure(status: .uriTooLong, reason: "request line longer than \(limits.maxRequestLineBytes) bytes"))
            }
            return .needMore
        }
        headScanned = 0
        if end + 1 - start > limits.maxHeaderBytes {
            return .failure(Failure(status: .requestHeaderFieldsTooLarge, reason: "request head larger than \(limits.maxHeaderBytes) bytes"))
        }
        offset = bodyStart
        let head = UnsafeRawBufferPointer(rebasing: bytes[start..<(end + 1)])
        switch buildRequest(head) {
        case .failure(let f):
            return .failure(f)
        case .success(let (request, framing)):
            switch framing {
            case .none:
                return .request(request)
            case .length(let n):
                if request.headers.hasToken("100-continue", in: "Expect") && request.version == .http1_1 && bytes.count - offset < n {
                    continueRequested = true
                }
                var r = request
                r.body.reserveCapacity(n)
                state = .body(r, remaining: n)
            case .chunked:
                if request.headers.hasToken("100-continue", in: "Expect") && request.version == .http1_1 {
                    continueRequested = true
                }
                state = .chunkSize(request)
            }
            return next(bytes, offset: &offset)
        }
    }

    private enum Framing { case none, length(Int), chunked }

    private func buildRequest(_ head: UnsafeRawBufferPointer) -> Result<(HTTPRequest, Framing), Failure> {
        // Split into lines (CRLF or LF), the first being the request line.
        var lines: [UnsafeRawBufferPointer] = []
        var lineStart = 0
        for j in 0..<head.count where head[j] == 10 {
            var lineEnd = j
            if lineEnd > lineStart, head[lineEnd - 1] == 13 { lineEnd -= 1 }
            lines.append(UnsafeRawBufferPointer(rebasing: head[lineStart..<lineEnd]))
            lineStart = j + 1
        }
        guard let requestLine = lines.first else { return .failure(Failure(status: .badRequest, reason: "empty request")) }
        if requestLine.count > limits.maxRequestLineBytes {
            return .failure(Failure(status: .uriTooLong, reason: "request line longer than \(limits.maxRequestLineBytes) bytes"))
        }
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .failure(Failure(status: .badRequest, reason: "malformed request line"))
        }
        guard parts[0].allSatisfy(HTTPRequestParser.isTokenByte) else {
            return .failure(Failure(status: .badRequest, reason: "invalid method"))
        }
        guard let version = HTTPRequestParser.parseVersion(parts[2]) else {
            return .failure(Failure(status: .badRequest, reason: "malformed HTTP version"))
        }
        guard version.major == 1 else {
            return .failure(Failure(status: .httpVersionNotSupported, reason: "only HTTP/1.x is served"))
        }
        guard parts[1].allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(Failure(status: .badRequest, reason: "invalid request target"))
        }
        var target = String(decoding: parts[1], as: UTF8.self)
        // Absolute-form targets (proxies, some clients) are served by their path.
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            let afterScheme = target.drop(while: { $0 != "/" }).dropFirst(2)
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                target = String(afterScheme[slash...])
                if target.hasPrefix("?") { target = "/" + target }
            } else {
                target = "/"
            }
        }
        guard target.hasPrefix("/") || target == "*" else {
            return .failure(Failure(status: .badRequest, reason: "request target must be a path"))
        }

        var headers = HTTPHeaders()
        for raw in lines.dropFirst() {
            if raw.isEmpty { continue }
            if raw[0] == 32 || raw[0] == 9 {
                return .failure(Failure(status: .badRequest, reason: "obsolete header line folding"))
            }
            guard let colon = raw.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
                return .failure(Failure(status: .badRequest, reason: "header line without a name and colon"))
            }
            let nameBytes = UnsafeRawBufferPointer(rebasing: raw[0..<colon])
            guard nameBytes.allSatisfy(HTTPRequestParser.isTokenByte) else {
                return .failure(Failure(status: .badRequest, reason: "invalid header name"))
            }
            var vs = colon + 1, ve = raw.count
            while vs < ve, raw[vs] == 32 || raw[vs] == 9 { vs += 1 }
            while ve > vs, raw[ve - 1] == 32 || raw[ve - 1] == 9 { ve -= 1 }
            let valueBytes = UnsafeRawBufferPointer(rebasing: raw[vs..<ve])
            if valueBytes.contains(where: { $0 == 0 || $0 == 13 || $0 == 10 }) {
                return .failure(Failure(status: .badRequest, reason: "invalid character in a header value"))
            }
            headers.add(String(decoding: nameBytes, as: UTF8.self), String(decoding: valueBytes, as: UTF8.self))
        }
        let hostCount = headers.values("Host").count
        if version == .http1_1 && hostCount == 0 {
            return .failure(Failure(status: .badRequest, reason: "HTTP/1.1 request without a Host header"))
        }
        if hostCount > 1 {
            return .failure(Failure(status: .badRequest, reason: "more than one Host header"))
        }

        var request = HTTPRequest(method: HTTPMethod(String(decoding: parts[0], as: UTF8.self)), target: target,
                                  version: version, headers: headers, body: [], remoteAddress: remoteAddress)
        request.target = target

        // Body framing (RFC 9112 §6.3).
        let te = headers.values("Transfer-Encoding")
        let cl = headers.values("Content-Length")
        if !te.isEmpty {
            guard cl.isEmpty else {
                return .failure(Failure(status: .badRequest, reason: "both Transfer-Encoding and Content-Length"))
            }
            guard version == .http1_1 else {
                return .failure(Failure(status: .badRequest, reason: "Transfer-Encoding in an HTTP/1.0 request"))
            }
            let codings = te.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces().lowercased() }
            guard codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 else {
                return .failure(Failure(status: .badRequest, reason: "unsupported Transfer-Encoding (only chunked)"))
            }
            guard codings.count == 1 else {
                return .failure(Failure(status: .notImplemented, reason: "transfer codings other than chunked are not supported"))
            }
            return .success((request, .chunked))
        }
        if !cl.isEmpty {
            // Several equal values (or a list of equal values) are allowed; anything else is not.
            let values = cl.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingASCIISpaces() }
            guard let first = values.first, values.allSatisfy({ $0 == first }),
                  !first.isEmpty, first.utf8.count <= 18, first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let length = Int(first) else {
                return .failure(Failure(status: .badRequest, reason: "invalid Content-Length"))
            }
            if length > limits.maxBodyBytes {
                return .failure(Failure(status: .payloadTooLarge, reason: "request body larger than \(limits.maxBodyBytes) bytes"))
            }
            return .success((request, length == 0 ? .none : .length(length)))
        }
        return .success((request, .none))
    }

    // MARK: - Helpers

    /// Takes one line (without CR/LF) from the input, carrying partial lines over reads.
    private mutating func takeLine(_ bytes: UnsafeRawBufferPointer, offset: inout Int, limit: Int) -> [UInt8]? {
        while offset < bytes.count {
            let b = bytes[offset]
            offset += 1
            if b == 10 {
                var result = line
                line.removeAll(keepingCapacity: true)
                if result.last == 13 { result.removeLast() }
                return result
            }
            line.append(b)
            if line.count > limit + 1 { return nil }
        }
        return nil
    }

    private func containsNewline(_ bytes: UnsafeRawBufferPointer, from: Int, count: Int) -> Bool {
        var i = from
        let end = min(bytes.count, from + count)
        while i < end { if bytes[i] == 10 { return true }; i += 1 }
        return false
    }

    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 48...57, 65...90, 97...122: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    static func parseVersion<C: Collection>(_ bytes: C) -> HTTPVersion? where C.Element == UInt8 {
        let b = Array(bytes)
        guard b.count == 8, b[0] == 72, b[1] == 84, b[2] == 84, b[3] == 80, b[4] == 47, b[6] == 46,
              (48...57).contains(b[5]), (48...57).contains(b[7]) else { return nil }
        return HTTPVersion(major: Int(b[5] - 48), minor: Int(b[7] - 48))
    }

    static func parseHex<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        var value = 0
        var digits = 0
        for b in bytes {
            if b == 32 || b == 9 { if digits > 0 { break } else { continue } }
            guard let d = FormDecoding.hexValue(b) else { return nil }
            digits += 1
            guard digits <= 15 else { return nil }
            value = value << 4 | Int(d)
        }
        return digits > 0 ? value : nil
    }
}
