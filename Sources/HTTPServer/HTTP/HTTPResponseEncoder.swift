#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Serialises responses into one contiguous buffer, so each response leaves in a single `write`.
enum HTTPResponseEncoder {
    static let serverHeader = Array("Server: mock-server\r\n".utf8)

    /// What is sent instead of an answer whose head would hold CR, LF or NUL in a name, a value
    /// or the reason phrase (response splitting): a clean 500, whatever the answer came from.
    static let refusedHead = HTTPResponse.jsonError(.internalServerError, "The answer's head held CR, LF or NUL and was not sent")
        .hinted("A header name, a header value or the reason phrase of this answer held CR, LF or NUL; the server log names the request.")

    /// Appends the status line, standard headers, the response's headers and (unless `omitBody`) its body.
    /// Every head line is scanned for CR, LF and NUL once written (response splitting, whatever
    /// built the answer): false when one held any and `refusedHead` was written instead (the
    /// caller logs it). A response whose fields came from outside the server's code
    /// (`outsideFields`: a stub mapping, a template, a fault rule) takes `encodeOutside`, where
    /// its own `Date` or `Server` replaces the server's.
    @discardableResult
    static func encode(_ response: HTTPResponse, omitBody: Bool, keepAlive: Bool, requestVersion: HTTPVersion,
                       date: [UInt8], into out: inout [UInt8]) -> Bool {
        if response.outsideFields {
            return encodeOutside(response, omitBody: omitBody, keepAlive: keepAlive, requestVersion: requestVersion, date: date, into: &out)
        }
        let code = response.status.code
        // 1xx and 204 have no body and no Content-Length (RFC 9110 §8.6).
        let hasBody = code >= 200 && code != 204 && code != 304
        let bodyCount = response.body.count
        let connection = connectionField(code: code, keepAlive: keepAlive, requestVersion: requestVersion)
        // The head is written into a temporary buffer of its exact size (on the stack when small)
        // and appended once, then the body: appending each piece through `append(contentsOf:)`
        // cost more per piece than the piece itself.
        var size = 9 + ByteWriter.decimalCount(code) + 1 + response.status.reasonPhrase.utf8.count + 8 + date.count + 2
            + serverHeader.count + 2
        if hasBody { size += 16 + ByteWriter.decimalCount(bodyCount) + 2 }
        if let connection { size += connection.utf8CodeUnitCount }
        for field in response.headers { size += field.name.utf8.count + 2 + field.value.utf8.count + 2 }
        let withBody = !omitBody && hasBody
        out.reserveCapacity(out.count + size + (withBody ? bodyCount : 0))
        // The size sum and the writes below must agree: a test build stops on a difference; a
        // release build never sends a cut head (a short sum is written again, twice as large).
        var capacity = size
        var clean = true
        while true {
            let complete = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Bool in
                guard let base = buffer.baseAddress else { return false }
                var w = ByteWriter(base, capacity: capacity)
                w.put("HTTP/1.1 ")
                w.putDecimal(code)
                w.put(32)
                w.put(response.status.reasonPhrase)
                if w.breaksLine(from: 0) { clean = false }
                w.put("\r\nDate: ")
                w.put(date)
                w.put("\r\n")
                w.put(serverHeader)
                if hasBody {
                    w.put("Content-Length: ")
                    w.putDecimal(bodyCount)
                    w.put("\r\n")
                }
                if let connection { w.put(connection) }
                for field in response.headers {
                    let line = w.position
                    w.put(field.name)
                    w.put(": ")
                    w.put(field.value)
                    if w.breaksLine(from: line) { clean = false }
                    w.put("\r\n")
                }
                w.put("\r\n")
                assert(w.position == size && !w.dropped, "response head: \(w.position) bytes written, \(size) counted")
                if w.dropped { return false }
                if clean { out.append(contentsOf: w.written) }
                return true
            }
            if complete { break }
            capacity *= 2
        }
        guard clean else {
            encode(refusedHead, omitBody: omitBody, keepAlive: keepAlive, requestVersion: requestVersion, date: date, into: &out)
            return false
        }
        if withBody { out.append(contentsOf: response.body) }
        return true
    }

    /// The `Connection` field the server adds, if any.
    private static func connectionField(code: Int, keepAlive: Bool, requestVersion: HTTPVersion) -> StaticString? {
        code == 101 ? nil : !keepAlive ? "Connection: close\r\n" : requestVersion == .http1_0 ? "Connection: keep-alive\r\n" : nil
    }

    /// `encode` for an `outsideFields` response: its own `Date` or `Server` replaces the server's;
    /// its head is scanned as `encode`'s is; its body goes in chunks when it asks (`chunked`).
    private static func encodeOutside(_ response: HTTPResponse, omitBody: Bool, keepAlive: Bool, requestVersion: HTTPVersion,
                                      date: [UInt8], into out: inout [UInt8]) -> Bool {
        let code = response.status.code
        let hasBody = code >= 200 && code != 204 && code != 304
        var bodyCount = response.body.count
        let connection = connectionField(code: code, keepAlive: keepAlive, requestVersion: requestVersion)
        var size = 9 + ByteWriter.decimalCount(code) + 1 + response.status.reasonPhrase.utf8.count + 2 + 2
        if let connection { size += connection.utf8CodeUnitCount }
        var ownDate = true, ownServer = true, givenLength = false
        for field in response.headers {
            let nameCount = field.name.utf8.count
            // Only a 4- or 6-byte name can be Date or Server.
            if nameCount == 4 || nameCount == 6 {
                if field.name.equalsIgnoringASCIICase("Date") { ownDate = false } else if field.name.equalsIgnoringASCIICase("Server") { ownServer = false }
            } else if nameCount == 14, field.name.equalsIgnoringASCIICase("Content-Length") {
                // Never written as given (one framing, the server's): a HEAD answer's own length
                // (a proxied HEAD's, the upstream's) is what the body's would have been.
                givenLength = true
                if omitBody, let length = Int(field.value), length >= 0 { bodyCount = length }
                continue
            }
            size += nameCount + 2 + field.value.utf8.count + 2
        }
        // One framing (RFC 9112 §6): a length, or chunks (never both, and never chunks to HTTP/1.0).
        let chunks = hasBody && sendsChunks(response, requestVersion: requestVersion)
        if chunks { size += chunkedField.count } else if hasBody { size += 16 + ByteWriter.decimalCount(bodyCount) + 2 }
        if ownDate { size += 6 + date.count + 2 }
        if ownServer { size += serverHeader.count }
        let withBody = !omitBody && hasBody
        out.reserveCapacity(out.count + size + (withBody ? bodyCount : 0))
        var capacity = size
        var clean = true
        while true {
            let complete = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Bool in
                guard let base = buffer.baseAddress else { return false }
                var w = ByteWriter(base, capacity: capacity)
                w.put("HTTP/1.1 ")
                w.putDecimal(code)
                w.put(32)
                w.put(response.status.reasonPhrase)
                if w.breaksLine(from: 0) { clean = false }
                if ownDate {
                    w.put("\r\nDate: ")
                    w.put(date)
                }
                w.put("\r\n")
                if ownServer { w.put(serverHeader) }
                if chunks {
                    w.put(chunkedField)
                } else if hasBody {
                    w.put("Content-Length: ")
                    w.putDecimal(bodyCount)
                    w.put("\r\n")
                }
                if let connection { w.put(connection) }
                for field in response.headers {
                    if givenLength, field.name.utf8.count == 14, field.name.equalsIgnoringASCIICase("Content-Length") { continue }
                    let line = w.position
                    w.put(field.name)
                    w.put(": ")
                    w.put(field.value)
                    if w.breaksLine(from: line) { clean = false }
                    w.put("\r\n")
                }
                w.put("\r\n")
                assert(w.position == size && !w.dropped, "response head: \(w.position) bytes written, \(size) counted")
                if w.dropped { return false }
                if clean { out.append(contentsOf: w.written) }
                return true
            }
            if complete { break }
            capacity *= 2
        }
        guard clean else {
            encode(refusedHead, omitBody: omitBody, keepAlive: keepAlive, requestVersion: requestVersion, date: date, into: &out)
            return false
        }
        if withBody {
            if chunks { appendChunked(response.body, last: true, into: &out) } else { out.append(contentsOf: response.body) }
        }
        return true
    }

    /// Whether `response`'s body goes in chunks: an `outsideFields` answer asking for them, to an
    /// HTTP/1.1 request (the caller checks that the status has a body).
    static func sendsChunks(_ response: HTTPResponse, requestVersion: HTTPVersion) -> Bool {
        response.chunked && response.outsideFields && requestVersion != .http1_0
    }

    static let chunkedField = Array("Transfer-Encoding: chunked\r\n".utf8)

    /// The last chunk and the empty trailer.
    private static let lastChunk = Array("0\r\n\r\n".utf8)

    /// `bytes` as one chunk (none when empty), then the last chunk and the empty trailer when
    /// `last`: a chunked body written whole, or one piece of a dribbled one.
    static func appendChunked(_ bytes: ArraySlice<UInt8>, last: Bool, into out: inout [UInt8]) {
        if !bytes.isEmpty {
            out.append(contentsOf: String(bytes.count, radix: 16).utf8)
            out.append(0x0D)
            out.append(0x0A)
            out.append(contentsOf: bytes)
            out.append(0x0D)
            out.append(0x0A)
        }
        if last { out.append(contentsOf: lastChunk) }
    }

    /// The bytes `appendChunked(body, last: true)` writes for a body of `count` bytes.
    static func chunkedCount(_ count: Int) -> Int {
        count == 0 ? lastChunk.count : String(count, radix: 16).utf8.count + 2 + count + 2 + lastChunk.count
    }

    static func appendChunked(_ bytes: [UInt8], last: Bool, into out: inout [UInt8]) {
        appendChunked(bytes[...], last: last, into: &out)
    }

    /// `Date` header value (IMF-fixdate), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(epochSeconds: Int) -> [UInt8] {
        var t = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let text = "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}

