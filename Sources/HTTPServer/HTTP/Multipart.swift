/// A minimal `multipart/form-data` reader (RFC 7578): text fields only, files kept as text.
package enum Multipart {
    /// The boundary parameter of a `multipart/form-data` content type, or nil.
    package static func boundary(fromContentType contentType: String) -> String? {
        let parts = contentType.split(separator: ";")
        guard let type = parts.first, type.trimmingASCIISpaces().equalsIgnoringASCIICase("multipart/form-data") else { return nil }
        for part in parts.dropFirst() {
            let p = part.trimmingASCIISpaces()
            guard let eq = p.firstIndex(of: "=") else { continue }
            if p[..<eq].trimmingASCIISpaces().equalsIgnoringASCIICase("boundary") {
                var value = p[p.index(after: eq)...].trimmingASCIISpaces()
                if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                    value = value.dropFirst().dropLast()
                }
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }

    /// Parses the fields of a body; nil when the body does not follow the boundary format.
    /// With `strict`, a field that is not UTF-8 makes the whole body nil.
    package static func parse(body: [UInt8], boundary: String, strict: Bool = false) -> Parameters? {
        let delimiter = Array("--\(boundary)".utf8)
        var result = Parameters()
        guard var pos = find(delimiter, in: body, from: 0) else { return nil }
        pos += delimiter.count
        while pos < body.count {
            // After a delimiter: "--" ends the body, otherwise CRLF then a part.
            if body.count - pos >= 2 && body[pos] == UInt8(ascii: "-") && body[pos + 1] == UInt8(ascii: "-") { return result }
            pos = skipLineEnd(body, pos)
            guard let headerEnd = find(Array("\r\n\r\n".utf8), in: body, from: pos) else { return nil }
            let headerText = String(decoding: body[pos..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = find(delimiter, in: body, from: contentStart) else { return nil }
            var contentEnd = next
            if contentEnd >= contentStart + 2 && body[contentEnd - 2] == 13 && body[contentEnd - 1] == 10 { contentEnd -= 2 }
            if let name = fieldName(headerText) {
                let content = body[contentStart..<max(contentStart, contentEnd)]
                if strict && !content.withUnsafeBufferPointer(UTF8Validator.isValid) { return nil }
                result.append(name, String(decoding: content, as: UTF8.self))
            }
            pos = next + delimiter.count
        }
        return result
    }

    private static func fieldName(_ headers: String) -> String? {
        for line in headers.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].trimmingASCIISpaces().equalsIgnoringASCIICase("content-disposition") else { continue }
            for param in line[line.index(after: colon)...].split(separator: ";") {
                let p = param.trimmingASCIISpaces()
                guard let eq = p.firstIndex(of: "="), p[..<eq].trimmingASCIISpaces().equalsIgnoringASCIICase("name") else { continue }
                var v = p[p.index(after: eq)...].trimmingASCIISpaces()
                if v.hasPrefix("\"") && v.hasSuffix("\"") && v.count >= 2 { v = v.dropFirst().dropLast() }
                return String(v)
            }
        }
        return nil
    }

    private static func skipLineEnd(_ body: [UInt8], _ pos: Int) -> Int {
        var p = pos
        if p < body.count && body[p] == 13 { p += 1 }
        if p < body.count && body[p] == 10 { p += 1 }
        return p
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var i = start
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
