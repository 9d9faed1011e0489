#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Reads one HTTP/1.1 response from an upstream's bytes, with the bounds the server puts on
/// requests: a head of at most `maxHeadBytes`, a body of at most `maxBodyBytes`, framed by
/// `Content-Length`, `chunked` (RFC 9112 §7.1, with the request parser's chunk-size rules) or the
/// connection's close (§6.3). Interim 1xx answers are skipped. The whole answer is kept (bounded),
/// not streamed: the server's answers are written whole.
struct UpstreamResponseParser {
    enum Event {
        case needMore
        /// The answer, and whether the connection may carry another request.
        case response(OutboundResponse, reusable: Bool)
        case failure(String)
    }

    private enum State {
        case head
        case length(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
    }

    let maxHeadBytes: Int
    let maxBodyBytes: Int
    /// The request was HEAD: the answer has no body whatever its fields say.
    let headRequest: Bool

    private var state = State.head
    private var buffer: [UInt8] = []
    private var position = 0
    private var status = 0
    private var reason = ""
    private var headers = HTTPHeaders()
    private var body: [UInt8] = []
    private var keepAlive = true

    init(maxHeadBytes: Int, maxBodyBytes: Int, headRequest: Bool) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        self.headRequest = headRequest
    }

    /// Whether any byte of an answer arrived (a reused connection that fails before one is retried).
    var started: Bool { !buffer.isEmpty || status != 0 }

    /// Takes newly read bytes.
    mutating func receive(_ bytes: UnsafeRawBufferPointer) -> Event {
        // Bytes already parsed are dropped once they are most of the buffer: a long chunked body
        // costs its own size, not its size plus every chunk line read so far.
        if position > 64 * 1024 && position * 2 > buffer.count {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
        return parse(eof: false)
    }

    /// The upstream closed its side: a close-delimited body ends here; anything else is cut short.
    mutating func receiveEOF() -> Event {
        if case .untilClose = state { return finish(reusable: false) }
        return .failure(status == 0 ? "the upstream closed the connection without answering" : "the upstream closed the connection before the answer was complete")
    }

    private mutating func parse(eof: Bool) -> Event {
        while true {
            switch state {
            case .head:
                guard let end = headEnd() else {
                    if buffer.count - position > maxHeadBytes { return .failure("the upstream's answer head is larger than \(maxHeadBytes) bytes") }
                    return .needMore
                }
                if end - position > maxHeadBytes { return .failure("the upstream's answer head is larger than \(maxHeadBytes) bytes") }
                if let problem = readHead(upTo: end) { return .failure(problem) }
                position = end + 4
                if status < 200 && status != 101 {
                    // An interim answer (100 Continue, 103 Early Hints): the real one follows.
                    status = 0
                    headers = HTTPHeaders()
                    continue
                }
                if status == 101 { return .failure("the upstream switched protocols (101), which a proxied request cannot follow") }
                switch framing() {
                case .failure(let problem): return .failure(problem)
                case .success(let next): state = next
                }
            case .length(let remaining):
                let available = buffer.count - position
                let take = min(available, remaining)
                body.append(contentsOf: buffer[position..<position + take])
                position += take
                if take < remaining { state = .length(remaining: remaining - take); return .needMore }
                return finish(reusable: keepAlive)
            case .chunkSize:
                guard let line = takeLine(limit: 1024) else { return tooLongLine("chunk size line") ?? .needMore }
                guard let size = HTTPRequestParser.parseChunkSizeLine(line) else { return .failure("the upstream sent a malformed chunk size line") }
                if size == 0 { state = .trailers; continue }
                guard size <= maxBodyBytes - body.count else { return .failure(tooLarge) }
                state = .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(buffer.count - position, remaining)
                body.append(contentsOf: buffer[position..<position + take])
                position += take
                if take < remaining { state = .chunkData(remaining: remaining - take); return .needMore }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard buffer.count - position >= 2 else { return .needMore }
                guard buffer[position] == 13, buffer[position + 1] == 10 else { return .failure("the upstream's chunk data was not followed by CRLF") }
                position += 2
                state = .chunkSize
            case .trailers:
                // Trailer fields are not forwarded (the server writes no trailers); read past them.
                guard let line = takeLine(limit: maxHeadBytes) else { return tooLongLine("trailer section") ?? .needMore }
                if line.isEmpty { return finish(reusable: keepAlive) }
            case .untilClose:
                body.append(contentsOf: buffer[position...])
                position = buffer.count
                if body.count > maxBodyBytes { return .failure(tooLarge) }
                return .needMore
            }
        }
    }

    private var tooLarge: String { "the upstream's answer body is larger than \(maxBodyBytes) bytes" }

    private mutating func finish(reusable: Bool) -> Event {
        if body.count > maxBodyBytes { return .failure(tooLarge) }
        // Bytes after a complete answer that nobody asked for: the connection is not reused.
        let extra = position < buffer.count
        let answer = OutboundResponse(status: status, reason: reason, headers: HopByHop.endToEnd(headers, answersHead: headRequest), body: body)
        return .response(answer, reusable: reusable && !extra)
    }

    private func headEnd() -> Int? {
        guard buffer.count - position >= 4 else { return nil }
        var i = position
        while i + 3 < buffer.count {
            if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// A CRLF-ended line from `position` (without the CRLF), or nil when it is not all here yet.
    private mutating func takeLine(limit: Int) -> [UInt8]? {
        var i = position
        while i + 1 < buffer.count && i - position <= limit {
            if buffer[i] == 13 && buffer[i + 1] == 10 {
                let line = Array(buffer[position..<i])
                position = i + 2
                return line
            }
            i += 1
        }
        return nil
    }

    private func tooLongLine(_ what: String) -> Event? {
        buffer.count - position > maxHeadBytes ? .failure("the upstream's \(what) is too long") : nil
    }

    /// Status line and fields of the head in `buffer[position..<end]`; a reason when they are malformed.
    private mutating func readHead(upTo end: Int) -> String? {
        var lines: [ArraySlice<UInt8>] = []
        var start = position, i = position
        while i < end {
            if buffer[i] == 13 {
                guard i + 1 < buffer.count, buffer[i + 1] == 10 else { return "the upstream's answer head has a bare CR" }
                lines.append(buffer[start..<i])
                i += 2
                start = i
                continue
            }
            if buffer[i] == 10 { return "the upstream's answer head has a bare LF" }
            i += 1
        }
        lines.append(buffer[start..<end])
        guard let statusLine = lines.first else { return "the upstream sent an empty answer head" }
        // HTTP/1.x SP 3DIGIT SP reason
        let text = Array(statusLine)
        guard text.count >= 12, text[8] == 32, text[12...].first.map({ $0 == 32 }) ?? true else { return "the upstream's status line is not HTTP/1.x: \(printable(text))" }
        let version = text.withUnsafeBytes { HTTPRequestParser.parseVersion(UnsafeRawBufferPointer(rebasing: $0[0..<8])) }
        guard let version, version.major == 1 else { return "the upstream's status line is not HTTP/1.x: \(printable(text))" }
        var code = 0
        for b in text[9..<12] {
            guard (48...57).contains(b) else { return "the upstream's status code is not 3 digits: \(printable(text))" }
            code = code * 10 + Int(b - 48)
        }
        guard code >= 100 else { return "the upstream's status code \(code) is out of range" }
        let reasonBytes = text.count > 13 ? Array(text[13...]) : []
        if reasonBytes.contains(where: HTTPRequestParser.isForbiddenInFieldValue) { return "the upstream's reason phrase holds a control character" }
        status = code
        reason = String(decoding: reasonBytes, as: UTF8.self)
        keepAlive = version.minor >= 1
        headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58) else { return "the upstream sent a field line without a colon" }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(HTTPRequestParser.isTokenByte) else { return "the upstream sent a field with an invalid name (or an obsolete folded line)" }
            var valueStart = colon + 1, valueEnd = line.endIndex
            while valueStart < valueEnd, line[valueStart] == 32 || line[valueStart] == 9 { valueStart += 1 }
            while valueEnd > valueStart, line[valueEnd - 1] == 32 || line[valueEnd - 1] == 9 { valueEnd -= 1 }
            let value = line[valueStart..<valueEnd]
            if value.contains(where: HTTPRequestParser.isForbiddenInFieldValue) { return "the upstream's field \(String(decoding: name, as: UTF8.self)) holds a control character" }
            headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        if headers.hasToken("close", in: "Connection") { keepAlive = false }
        if version.minor == 0 && !headers.hasToken("keep-alive", in: "Connection") { keepAlive = false }
        return nil
    }

    private enum Framing { case success(State), failure(String) }

    /// How the body is delimited (RFC 9112 §6.3).
    private func framing() -> Framing {
        if headRequest || status == 204 || status == 304 { return .success(.length(remaining: 0)) }
        let codings = headers.values("Transfer-Encoding")
        if !codings.isEmpty {
            let last = codings.joined(separator: ",").split(separator: ",").last?.trimmingASCIISpaces().lowercased()
            // Anything but chunked last is read to the close (§6.3 rule 4, for responses).
            if last == "chunked" { return .success(.chunkSize) }
            return .success(.untilClose)
        }
        let lengths = headers.values("Content-Length").flatMap { $0.split(separator: ",").map { $0.trimmingASCIISpaces() } }
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), first.utf8.allSatisfy({ (48...57).contains($0) }), first.utf8.count <= 15,
                  let n = Int(first) else { return .failure("the upstream sent an invalid or conflicting Content-Length") }
            guard n <= maxBodyBytes else { return .failure(tooLarge) }
            return .success(.length(remaining: n))
        }
        return .success(.untilClose)
    }

    private func printable(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(64).map { (32...126).contains($0) ? $0 : 63 }, as: UTF8.self)
    }
}
