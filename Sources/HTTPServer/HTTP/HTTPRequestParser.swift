#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

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
        /// Paths allowed `maxLargeBodyBytes` (read only for a body over `maxBodyBytes`).
        var largeBodyPaths: Set<String> = []
        var maxLargeBodyBytes = 0

        /// The body limit for a request to `path`.
        func maxBody(for path: String) -> Int {
            largeBodyPaths.contains(path) ? max(maxBodyBytes, maxLargeBodyBytes) : maxBodyBytes
        }
    }

    /// A request the parser cannot accept: the status to answer before closing.
    struct Failure: Error, Equatable {
        var status: HTTPStatus
        var reason: String
        /// The request line, when it was read before the failure (a 413 knows it; the log says it).
        var method: String? = nil
        var path: String? = nil
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
                let text: [UInt8]
                switch takeChunkLine(bytes, offset: &offset, limit: 1024) {
                case .line(let l): text = l
                case .needMore: return .needMore
                case .tooLong: return .failure(Failure(status: .badRequest, reason: "chunk size line too long"))
                case .bareLF: return .failure(Failure(status: .badRequest, reason: "chunk size line not ended by CRLF"))
                }
                // RFC 9112 §7.1: chunk-size [ chunk-ext ] CRLF, nothing else (`3f zz` is not 0x3f).
                guard let size = HTTPRequestParser.parseChunkSizeLine(text) else {
                    return .failure(Failure(status: .badRequest, reason: "invalid chunk size line"))
                }
                if size == 0 {
                    state = .trailers(request)
                } else {
                    guard size <= limits.maxBodyBytes - request.body.count || size <= limits.maxBody(for: request.path) - request.body.count else {
                        return .failure(Failure(status: .payloadTooLarge, reason: "request body larger than \(limits.maxBody(for: request.path)) bytes",
                                                     method: request.method.rawValue, path: request.path))
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
                // Exactly CRLF must follow the data (RFC 9112 §7.1; no bare LF); anything else fails at once.
                guard offset < bytes.count else { return .needMore }
                let b = bytes[offset]
                offset += 1
                if b == 13 && line.isEmpty {
                    line.append(13)
                } else if b == 10 && line.count == 1 {  // the CR just taken
                    line.removeAll(keepingCapacity: true)
                    state = .chunkSize(request)
                } else {
                    return .failure(Failure(status: .badRequest, reason: "chunk data not followed by CRLF"))
                }
            case .trailers(let request):
                // Trailer fields are read and dropped; an empty line ends the message.
                let text: [UInt8]
                switch takeChunkLine(bytes, offset: &offset, limit: limits.maxHeaderBytes) {
                case .line(let l): text = l
                case .needMore: return .needMore
                case .tooLong: return .failure(Failure(status: .requestHeaderFieldsTooLarge, reason: "trailers too large"))
                case .bareLF: return .failure(Failure(status: .badRequest, reason: "trailer line not ended by CRLF"))
                }
                if text.contains(where: HTTPRequestParser.isForbiddenInFieldValue) {
                    return .failure(Failure(status: .badRequest, reason: "invalid character in a trailer line"))
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
        // From line feed to line feed (memchr), not byte by byte.
        while let lf = HTTPRequestParser.index(of: 10, in: bytes, from: i, to: bytes.count) {
            if lf + 1 < bytes.count, bytes[lf + 1] == 10 { end = lf; bodyStart = lf + 2; break }
            if lf + 2 < bytes.count, bytes[lf + 1] == 13, bytes[lf + 2] == 10 { end = lf; bodyStart = lf + 3; break }
            i = lf + 1
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
                // Reserve for what typically comes, not for what is announced: a client announcing
                // a large body and sending nothing must not cost the server that memory.
                r.body.reserveCapacity(min(n, 64 * 1024))
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
        // Works on byte indices only: no per-line arrays, no Character-wise String walks.
        let count = head.count
        let lineEnd = HTTPRequestParser.index(of: 10, in: head, from: 0, to: count) ?? count
        var requestLineEnd = lineEnd
        if requestLineEnd > 0 && head[requestLineEnd - 1] == 13 { requestLineEnd -= 1 }
        if requestLineEnd > limits.maxRequestLineBytes {
            return .failure(Failure(status: .uriTooLong, reason: "request line longer than \(limits.maxRequestLineBytes) bytes"))
        }
        // METHOD SP TARGET SP VERSION, exactly two single spaces.
        var sp1 = 0
        while sp1 < requestLineEnd && head[sp1] != 32 { sp1 += 1 }
        var sp2 = sp1 + 1
        while sp2 < requestLineEnd && head[sp2] != 32 { sp2 += 1 }
        guard sp1 > 0, sp2 < requestLineEnd, sp2 > sp1 + 1 else {
            return .failure(Failure(status: .badRequest, reason: "malformed request line"))
        }
        if UnsafeRawBufferPointer(rebasing: head[(sp2 + 1)..<requestLineEnd]).contains(32) {
            return .failure(Failure(status: .badRequest, reason: "malformed request line"))
        }
        let methodBytes = UnsafeRawBufferPointer(rebasing: head[0..<sp1])
        guard methodBytes.allSatisfy(HTTPRequestParser.isTokenByte) else {
            return .failure(Failure(status: .badRequest, reason: "invalid method"))
        }
        guard let version = HTTPRequestParser.parseVersion(UnsafeRawBufferPointer(rebasing: head[(sp2 + 1)..<requestLineEnd])) else {
            return .failure(Failure(status: .badRequest, reason: "malformed HTTP version"))
        }
        guard version.major == 1 else {
            return .failure(Failure(status: .httpVersionNotSupported, reason: "only HTTP/1.x is served"))
        }
        var targetBytes = UnsafeRawBufferPointer(rebasing: head[(sp1 + 1)..<sp2])
        guard targetBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(Failure(status: .badRequest, reason: "invalid request target"))
        }
        // Absolute-form targets (proxies, some clients) are served by their path; their authority
        // names the host the request is for (it replaces Host below).
        // Kept as its place in `head`, not a String: the String's bookkeeping showed on every request.
        var authorityRange: Range<Int>?
        if targetBytes.count > 7, targetBytes[0] == UInt8(ascii: "h"),
           let schemeEnd = HTTPRequestParser.find("://", in: targetBytes) {
            let authority = schemeEnd + 3
            var pathStart = authority
            while pathStart < targetBytes.count && targetBytes[pathStart] != UInt8(ascii: "/") && targetBytes[pathStart] != UInt8(ascii: "?") {
                pathStart += 1
            }
            authorityRange = (sp1 + 1 + authority)..<(sp1 + 1 + pathStart)
            targetBytes = UnsafeRawBufferPointer(rebasing: targetBytes[pathStart...])
        }
        let target: String, path: String, query: String
        if targetBytes.isEmpty {
            (target, path, query) = ("/", "/", "")
        } else {
            guard targetBytes[0] == UInt8(ascii: "/") || targetBytes[0] == UInt8(ascii: "?") || (targetBytes.count == 1 && targetBytes[0] == UInt8(ascii: "*")) else {
                return .failure(Failure(status: .badRequest, reason: "request target must be a path"))
            }
            let prefix = targetBytes[0] == UInt8(ascii: "?") ? "/" : ""
            target = prefix + String(decoding: targetBytes, as: UTF8.self)
            if let q = targetBytes.firstIndex(of: UInt8(ascii: "?")) {
                path = prefix + String(decoding: UnsafeRawBufferPointer(rebasing: targetBytes[..<q]), as: UTF8.self)
                query = String(decoding: UnsafeRawBufferPointer(rebasing: targetBytes[(q + 1)...]), as: UTF8.self)
            } else {
                path = target
                query = ""
            }
        }

        // Header fields; the few that decide framing are noted on the way.
        var headers = HTTPHeaders()
        headers.reserveCapacity(8)
        var hostCount = 0
        var transferEncodings: [String] = []
        var contentLengths: [String] = []
        var lineStart = lineEnd + 1
        while lineStart < count {
            var end = HTTPRequestParser.index(of: 10, in: head, from: lineStart, to: count) ?? count
            let next = end + 1
            if end > lineStart && head[end - 1] == 13 { end -= 1 }
            defer { lineStart = next }
            if end == lineStart { continue }
            if head[lineStart] == 32 || head[lineStart] == 9 {
                return .failure(Failure(status: .badRequest, reason: "obsolete header line folding"))
            }
            let colon = HTTPRequestParser.index(of: UInt8(ascii: ":"), in: head, from: lineStart, to: end) ?? end
            guard colon < end, colon > lineStart else {
                return .failure(Failure(status: .badRequest, reason: "header line without a name and colon"))
            }
            let nameBytes = UnsafeRawBufferPointer(rebasing: head[lineStart..<colon])
            guard nameBytes.allSatisfy(HTTPRequestParser.isTokenByte) else {
                return .failure(Failure(status: .badRequest, reason: "invalid header name"))
            }
            var vs = colon + 1, ve = end
            while vs < ve, head[vs] == 32 || head[vs] == 9 { vs += 1 }
            while ve > vs, head[ve - 1] == 32 || head[ve - 1] == 9 { ve -= 1 }
            let valueBytes = UnsafeRawBufferPointer(rebasing: head[vs..<ve])
            if HTTPRequestParser.hasForbiddenFieldByte(valueBytes) {
                return .failure(Failure(status: .badRequest, reason: "invalid character in a header value"))
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let value = String(decoding: valueBytes, as: UTF8.self)
            switch nameBytes.count {
            case 4 where HTTPRequestParser.lowercaseEquals(nameBytes, "host"):
                hostCount += 1
                guard valueBytes.allSatisfy(HTTPRequestParser.isHostByte) else {
                    return .failure(Failure(status: .badRequest, reason: "invalid Host header"))
                }
            case 14 where HTTPRequestParser.lowercaseEquals(nameBytes, "content-length"): contentLengths.append(value)
            case 17 where HTTPRequestParser.lowercaseEquals(nameBytes, "transfer-encoding"): transferEncodings.append(value)
            default: break
            }
            headers.add(name, value)
        }
        if version == .http1_1 && hostCount == 0 {
            return .failure(Failure(status: .badRequest, reason: "HTTP/1.1 request without a Host header"))
        }
        if hostCount > 1 {
            return .failure(Failure(status: .badRequest, reason: "more than one Host header"))
        }

        // An absolute-form target names the host; RFC 9112 §3.2.2 says to ignore Host then, so the
        // authority takes its place and everything that reads Host (the admin guard) sees it.
        if let authorityRange {
            headers.set("Host", String(decoding: UnsafeRawBufferPointer(rebasing: head[authorityRange]), as: UTF8.self))
        }
        let request = HTTPRequest(method: HTTPRequestParser.method(methodBytes), target: target,
                                  path: path, query: query, version: version, headers: headers, body: [])

        // Body framing (RFC 9112 §6.3).
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else {
                return .failure(Failure(status: .badRequest, reason: "both Transfer-Encoding and Content-Length"))
            }
            guard version == .http1_1 else {
                return .failure(Failure(status: .badRequest, reason: "Transfer-Encoding in an HTTP/1.0 request"))
            }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces().lowercased() }
            guard codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 else {
                return .failure(Failure(status: .badRequest, reason: "unsupported Transfer-Encoding (only chunked)"))
            }
            guard codings.count == 1 else {
                return .failure(Failure(status: .notImplemented, reason: "transfer codings other than chunked are not supported"))
            }
            return .success((request, .chunked))
        }
        if !contentLengths.isEmpty {
            guard let length = HTTPRequestParser.contentLength(contentLengths) else {
                return .failure(Failure(status: .badRequest, reason: "invalid Content-Length"))
            }
            if length > limits.maxBodyBytes, length > limits.maxBody(for: request.path) {
                return .failure(Failure(status: .payloadTooLarge, reason: "request body larger than \(limits.maxBody(for: request.path)) bytes",
                                                     method: request.method.rawValue, path: request.path))
            }
            return .success((request, length == 0 ? .none : .length(length)))
        }
        return .success((request, .none))
    }

    /// One length from one or more `Content-Length` values (equal repeats are allowed), or nil.
    private static func contentLength(_ values: [String]) -> Int? {
        if values.count == 1, let value = values.first, let length = decimal(value) { return length }
        let all = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingASCIISpaces() }
        guard let first = all.first, all.allSatisfy({ $0 == first }) else { return nil }
        return decimal(first)
    }

    /// 1 to 18 ASCII digits as a number (no sign, no space: what Content-Length allows); one
    /// pass over the bytes, read on every request with a body.
    private static func decimal(_ text: some StringProtocol) -> Int? {
        var value = 0, count = 0
        for byte in text.utf8 {
            let digit = byte &- 48
            guard digit < 10, count < 18 else { return nil }
            value = value &* 10 &+ Int(digit)
            count &+= 1
        }
        return count > 0 ? value : nil
    }

    /// The method, the common ones as their shared constants (no String built from bytes).
    static func method(_ bytes: UnsafeRawBufferPointer) -> HTTPMethod {
        func matches(_ name: StaticString) -> Bool {
            guard let base = bytes.baseAddress, bytes.count == name.utf8CodeUnitCount else { return false }
            return memcmp(base, name.utf8Start, bytes.count) == 0
        }
        switch bytes.count {
        case 3 where matches("GET"): return .get
        case 4 where matches("POST"): return .post
        case 4 where matches("HEAD"): return .head
        case 3 where matches("PUT"): return .put
        case 6 where matches("DELETE"): return .delete
        case 7 where matches("OPTIONS"): return .options
        default: return HTTPMethod(String(decoding: bytes, as: UTF8.self))
        }
    }

    private static func lowercaseEquals(_ bytes: UnsafeRawBufferPointer, _ lower: StaticString) -> Bool {
        guard bytes.count == lower.utf8CodeUnitCount else { return false }
        let p = lower.utf8Start
        for k in 0..<bytes.count {
            let b = bytes[k]
            if (b >= 65 && b <= 90 ? b | 0x20 : b) != p[k] { return false }
        }
        return true
    }

    private static func find(_ needle: StaticString, in bytes: UnsafeRawBufferPointer) -> Int? {
        let n = needle.utf8CodeUnitCount
        guard bytes.count >= n else { return nil }
        outer: for i in 0...(bytes.count - n) {
            for k in 0..<n where bytes[i + k] != needle.utf8Start[k] { continue outer }
            return i
        }
        return nil
    }

    // MARK: - Helpers

    private enum ChunkLine { case line([UInt8]), needMore, tooLong, bareLF }

    /// Takes one CRLF-ended line of chunked framing (without the CRLF), carrying partial lines over
    /// reads. A bare LF is refused: RFC 9112 allows it only in the head.
    private mutating func takeChunkLine(_ bytes: UnsafeRawBufferPointer, offset: inout Int, limit: Int) -> ChunkLine {
        while offset < bytes.count {
            let b = bytes[offset]
            offset += 1
            if b == 10 {
                guard line.last == 13 else { return .bareLF }
                var result = line
                line.removeAll(keepingCapacity: true)
                result.removeLast()
                return .line(result)
            }
            line.append(b)
            if line.count > limit + 1 { return .tooLong }
        }
        return .needMore
    }

    /// The index of the first `byte` in `bytes[from..<to]`, or nil.
    static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress,
              let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return UnsafeRawPointer(hit) - base
    }

    private func containsNewline(_ bytes: UnsafeRawBufferPointer, from: Int, count: Int) -> Bool {
        var i = from
        let end = min(bytes.count, from + count)
        while i < end { if bytes[i] == 10 { return true }; i += 1 }
        return false
    }

    /// Characters of `uri-host [ ":" port ]` (RFC 3986 reg-name, IP literals, percent-escapes).
    static func isHostByte(_ b: UInt8) -> Bool {
        switch b {
        case 48...57, 65...90, 97...122: return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: "%"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default: return false
        }
    }

    /// tchar (RFC 9110 §5.6.2): digits, letters and !#$%&'*+-.^_`|~, as two 64-bit masks
    /// (a switch per byte showed in the profile).
    static func isTokenByte(_ b: UInt8) -> Bool {
        if b < 64 { return (0x03FF6CFA00000000 as UInt64) >> b & 1 == 1 }
        if b < 128 { return (0x57FFFFFFC7FFFFFE as UInt64) >> (b - 64) & 1 == 1 }
        return false
    }

    static func parseVersion(_ b: UnsafeRawBufferPointer) -> HTTPVersion? {
        // On the head's bytes in place: an array copy per request showed in the profile.
        guard b.count == 8, b[0] == 72, b[1] == 84, b[2] == 84, b[3] == 80, b[4] == 47, b[6] == 46,
              (48...57).contains(b[5]), (48...57).contains(b[7]) else { return nil }
        return HTTPVersion(major: Int(b[5] - 48), minor: Int(b[7] - 48))
    }

    /// Whether any byte is one `isForbiddenInFieldValue` refuses (a plain loop: the generic
    /// `contains(where:)` cost more than the test).
    static func hasForbiddenFieldByte(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for b in bytes where isForbiddenInFieldValue(b) { return true }
        return false
    }

    /// A field value's octets (RFC 9110 §5.5): VCHAR, obs-text, SP and HTAB; every other control
    /// (NUL, CR, VT, FF, DEL…) is refused rather than passed on.
    static func isForbiddenInFieldValue(_ b: UInt8) -> Bool {
        (b < 0x20 && b != 0x09) || b == 0x7F
    }

    /// The size of a chunk-size line (RFC 9112 §7.1: `1*HEXDIG *( BWS ";" BWS ext-name [ BWS "="
    /// BWS ( token / quoted-string ) ] )`), or nil when anything else is on it.
    static func parseChunkSizeLine(_ line: [UInt8]) -> Int? {
        var i = 0
        var value = 0
        while i < line.count, let d = FormDecoding.hexValue(line[i]) {
            guard i < 15 else { return nil }
            value = value << 4 | Int(d)
            i += 1
        }
        guard i > 0 else { return nil }
        func skipBWS() { while i < line.count, line[i] == 32 || line[i] == 9 { i += 1 } }
        func skipToken() -> Bool {
            let start = i
            while i < line.count, isTokenByte(line[i]) { i += 1 }
            return i > start
        }
        while i < line.count {
            skipBWS()
            guard i < line.count, line[i] == UInt8(ascii: ";") else { return nil }
            i += 1
            skipBWS()
            guard skipToken() else { return nil }
            skipBWS()
            guard i < line.count, line[i] == UInt8(ascii: "=") else { continue }
            i += 1
            skipBWS()
            if i < line.count, line[i] == UInt8(ascii: "\"") {
                i += 1
                var closed = false
                while i < line.count {
                    let b = line[i]
                    i += 1
                    if b == UInt8(ascii: "\"") { closed = true; break }
                    if b == UInt8(ascii: "\\") {
                        guard i < line.count, !isForbiddenInFieldValue(line[i]) else { return nil }
                        i += 1
                        continue
                    }
                    if isForbiddenInFieldValue(b) { return nil }
                }
                guard closed else { return nil }
            } else {
                guard skipToken() else { return nil }
            }
        }
        return value
    }
}
