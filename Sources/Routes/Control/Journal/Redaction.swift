import EmulationKit
import HTTPServer

/// Hides secrets in what the journal shows (docs/control-plane.md): passwords, codes and generated
/// passwords become `***`; tokens keep their first 4 characters and `…` (`Bearer ` kept).
/// Works on text, so a body cut at 4,096 bytes (no longer valid JSON) is still redacted.
/// The names are the common ones plus each system's own (`EmulatedSystem.secretFields`,
/// `tokenFields`): the control plane knows no system's secrets.
package struct Redaction: Sendable {
    package enum Kind { case secret, token }

    /// Field names whose values are secrets in every system, lowercased.
    static let commonSecretNames: Set<String> = ["password", "newpassword", "oldpassword"]
    /// Field and header names whose values are bearer credentials in every system, lowercased.
    static let commonTokenNames: Set<String> = ["token", "access_token", "refresh_token", "apitoken", "authorization",
                                                        "proxy-authorization", "cookie", "set-cookie", "x-mock-admin-token", "x-api-key"]

    /// Field names whose values are secrets, lowercased.
    let secretNames: Set<String>
    /// Field and header names whose values are bearer credentials, lowercased.
    let tokenNames: Set<String>

    /// The common names and those `systems` declare.
    package init(systems: SystemCatalog) {
        secretNames = Redaction.commonSecretNames.union(systems.types.flatMap { $0.secretFields.map { $0.lowercased() } })
        tokenNames = Redaction.commonTokenNames.union(systems.types.flatMap { $0.tokenFields.map { $0.lowercased() } })
    }

    /// The common names only.
    package init() {
        secretNames = Redaction.commonSecretNames
        tokenNames = Redaction.commonTokenNames
    }

    package func kind(of name: String) -> Kind? {
        let lower = name.lowercased()
        if secretNames.contains(lower) { return .secret }
        if tokenNames.contains(lower) { return .token }
        return nil
    }

    /// A token as the journal shows it: `abcd…`, `Bearer abcd…`; short values only `…`.
    static func maskToken(_ value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        if parts.count == 2 { return "\(parts[0]) \(maskToken(String(parts[1])))" }
        return value.count > 4 ? "\(value.prefix(4))…" : "…"
    }

    /// A header value, masked when the header carries credentials.
    package func header(_ name: String, _ value: String) -> String {
        kind(of: name) == nil ? value : Redaction.maskToken(value)
    }

    static func redact(_ value: String, as kind: Kind) -> String {
        kind == .secret ? "***" : maskToken(value)
    }

    /// A query string or form body (`a=b&password=c`): secret values replaced, names kept.
    /// Scans bytes, not Characters: every journaled body passes through here (a 6 KB JSON answer
    /// walked as Characters cost more than the request itself while the console listened).
    package func form(_ text: String) -> String {
        let equals = UInt8(ascii: "="), ampersand = UInt8(ascii: "&")
        guard text.utf8.contains(equals) else { return text }
        var pieces: [Substring] = []
        var replaced = false
        for bytes in text.utf8.split(separator: ampersand, omittingEmptySubsequences: false) {
            let pair = Substring(bytes)
            guard let eq = bytes.firstIndex(of: equals),
                  let kind = kind(of: FormDecoding.percentDecode(pair[..<eq], plusIsSpace: true)) else {
                pieces.append(pair)
                continue
            }
            let value = FormDecoding.percentDecode(pair[pair.index(after: eq)...], plusIsSpace: true)
            pieces.append(Substring("\(pair[..<eq])=\(Redaction.redact(value, as: kind))"))
            replaced = true
        }
        return replaced ? pieces.joined(separator: "&") : text
    }

    /// A request or response body as text, redacted for every encoding it may be in.
    package func body(_ bytes: [UInt8], contentType: String?) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        if let contentType, contentType.lowercased().hasPrefix("multipart/"),
           let boundary = Multipart.boundary(fromContentType: contentType) {
            text = multipart(text, boundary: boundary)
        }
        // A body may be JSON under any Content-Type (SkyZone reads it so), or a form under a JSON one:
        // redacting a secret that is not there costs nothing, leaking one would.
        return form(json(text))
    }

    /// Multipart text: the content of every part whose `name` is a secret is replaced.
    package func multipart(_ text: String, boundary: String) -> String {
        let delimiter = "--" + boundary
        let parts = text.components(separatedBy: delimiter)
        return parts.map { part -> String in
            guard let headEnd = part.firstRange(of: "\r\n\r\n"),
                  let nameStart = part[..<headEnd.lowerBound].firstRange(of: "name=\""),
                  let nameEnd = part[nameStart.upperBound..<headEnd.lowerBound].firstIndex(of: "\"") else { return part }
            guard let kind = kind(of: String(part[nameStart.upperBound..<nameEnd])) else { return part }
            var content = part[headEnd.upperBound...]
            let trailer = content.hasSuffix("\r\n") ? "\r\n" : ""
            if !trailer.isEmpty { content = content.dropLast(2) }
            return part[..<headEnd.upperBound] + Redaction.redact(String(content), as: kind) + trailer
        }.joined(separator: delimiter)
    }

    /// JSON text (complete or cut): the value after a secret key is replaced wherever it is nested.
    package func json(_ text: String) -> String {
        let b = Array(text.utf8)
        guard b.contains(UInt8(ascii: "\"")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var pending: Kind?
        var i = 0
        let quote = UInt8(ascii: "\"")
        while i < b.count {
            let c = b[i]
            if c == quote {
                // The string literal's end (exclusive of the closing quote), or the end of a cut text.
                var j = i + 1
                while j < b.count && b[j] != quote { j += b[j] == UInt8(ascii: "\\") ? 2 : 1 }
                let contentEnd = min(j, b.count)
                let content = String(decoding: b[(i + 1)..<contentEnd], as: UTF8.self)
                var k = j + 1
                while k < b.count && (b[k] == 0x20 || b[k] == 0x0A || b[k] == 0x0D || b[k] == 0x09) { k += 1 }
                let isKey = k < b.count && b[k] == UInt8(ascii: ":")
                let end = min(j + 1, b.count)
                if isKey {
                    pending = kind(of: content)
                    out.append(contentsOf: b[i..<end])
                } else if let kind = pending {
                    out.append(quote)
                    out.append(contentsOf: Array(Redaction.redact(content, as: kind).utf8))
                    if j < b.count { out.append(quote) }
                    pending = nil
                } else {
                    out.append(contentsOf: b[i..<end])
                }
                i = end
                continue
            }
            if let kind = pending, c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "t") || c == UInt8(ascii: "f") {
                // A number (or boolean) after a secret key: a code sent as a number.
                var j = i
                while j < b.count && !",}] \r\n\t".utf8.contains(b[j]) { j += 1 }
                let literal = String(decoding: b[i..<j], as: UTF8.self)
                out.append(contentsOf: Array(("\"" + Redaction.redact(literal, as: kind) + "\"").utf8))
                pending = nil
                i = j
                continue
            }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") || c == UInt8(ascii: ",") || c == UInt8(ascii: "n") { pending = nil }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
