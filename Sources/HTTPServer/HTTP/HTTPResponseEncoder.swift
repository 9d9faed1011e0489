#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Serialises responses into one contiguous buffer, so each response leaves in a single `write`.
enum HTTPResponseEncoder {
    static let serverHeader = Array("Server: mock-server\r\n".utf8)

    /// Appends the status line, standard headers, the response's headers and (unless `omitBody`) its body.
    static func encode(_ response: HTTPResponse, omitBody: Bool, keepAlive: Bool, requestVersion: HTTPVersion,
                       date: [UInt8], into out: inout [UInt8]) {
        let code = response.status.code
        out.reserveCapacity(out.count + 160 + response.headers.count * 40 + (omitBody ? 0 : response.body.count))
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(code, to: &out)
        out.append(32)
        out.append(contentsOf: response.status.reasonPhrase.utf8)
        out.append(contentsOf: "\r\nDate: ".utf8)
        out.append(contentsOf: date)
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: serverHeader)
        // 1xx and 204 have no body and no Content-Length (RFC 9110 §8.6).
        if code >= 200 && code != 204 && code != 304 {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &out)
            out.append(contentsOf: "\r\n".utf8)
        }
        if code != 101 {
            if !keepAlive {
                out.append(contentsOf: "Connection: close\r\n".utf8)
            } else if requestVersion == .http1_0 {
                out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
            }
        }
        for field in response.headers {
            out.append(contentsOf: field.name.utf8)
            out.append(58); out.append(32)
            out.append(contentsOf: field.value.utf8)
            out.append(13); out.append(10)
        }
        out.append(13); out.append(10)
        if !omitBody && code >= 200 && code != 204 && code != 304 {
            out.append(contentsOf: response.body)
        }
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 10 { out.append(UInt8(48 + value)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value < 0 ? 0 : value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            while n > 0 && count < 20 {
                buf[19 - count] = UInt8(48 + n % 10)
                n /= 10
                count += 1
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buf[(20 - count)..<20]))
        }
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
