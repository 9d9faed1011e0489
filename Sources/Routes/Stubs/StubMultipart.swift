#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The parts of a `multipart/…` body (RFC 2046): each part's header fields and body. One pass
/// over the body per delimiter search, at most `maxParts` parts, a boundary of at most 200
/// characters, so a body costs work linear in its size.
struct StubMultipart {
    struct Part {
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func values(_ name: String) -> [String] { headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }
    }

    static let maxParts = 1_000

    /// The parts of `request`'s body; nil when it is not multipart (WireMock: `Content-Type`
    /// containing `multipart/`) or names no boundary.
    static func parts(of request: StubRequest) -> [Part]? {
        guard let type = request.headers.values("Content-Type").first, type.contains("multipart/"),
              let boundary = boundary(type) else { return nil }
        return parse(request.body, boundary: boundary)
    }

    static func boundary(_ contentType: String) -> [UInt8]? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingASCIIWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard !value.isEmpty, value.utf8.count <= 200 else { return nil }
            return Array(value.utf8)
        }
        return nil
    }

    static func parse(_ body: [UInt8], boundary: [UInt8]) -> [Part] {
        let delimiter = Array("--".utf8) + boundary
        var parts: [Part] = []
        guard var at = find(delimiter, in: body, from: 0) else { return [] }
        while parts.count < maxParts {
            var start = at + delimiter.count
            // `--` after the delimiter closes the body.
            if start + 1 < body.count, body[start] == 45, body[start + 1] == 45 { break }
            while start < body.count, body[start] != 10 { start += 1 }
            start += 1
            guard start <= body.count, let next = find(Array("\r\n".utf8) + delimiter, in: body, from: start) else { break }
            parts.append(part(Array(body[start..<next])))
            at = next + 2
        }
        return parts
    }

    /// Header fields up to the first empty line, then the body.
    private static func part(_ bytes: [UInt8]) -> Part {
        var headers: [(String, String)] = []
        var i = 0
        while i < bytes.count {
            var end = i
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            var line = bytes[i..<end]
            if line.last == 13 { line = line.dropLast() }
            i = end + 1
            if line.isEmpty { break }
            let text = String(decoding: line, as: UTF8.self)
            if let colon = text.firstIndex(of: ":") {
                headers.append((String(text[..<colon]).trimmingASCIIWhitespace(), String(text[text.index(after: colon)...]).trimmingASCIIWhitespace()))
            }
        }
        return Part(headers: headers, body: i < bytes.count ? Array(bytes[i...]) : [])
    }

    /// The first index of `needle` in `haystack` at or after `from` (the needle is short: at most
    /// 204 bytes).
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// One of `multipartPatterns` (WireMock's `MultipartValuePattern`): `matchingType` `ANY` (the
/// default: some part matches) or `ALL` (every part matches); a part matches when its `headers`
/// and `bodyPatterns` all do. `name` is a label, as in WireMock (its Java builder turns a name
/// into a `Content-Disposition` header matcher, which then appears under `headers`).
struct MultipartPattern: Sendable {
    let all: Bool
    let headers: [(String, MultiValuePattern)]
    let bodyPatterns: [StringPattern]

    static func decode(_ value: JSONValue, at pointer: String) throws(StubProblem) -> MultipartPattern {
        let object = try StrictObject(value, at: pointer, what: "a multipart pattern")
        try object.allow(["name", "matchingType", "headers", "bodyPatterns"])
        _ = try object.string("name")
        let type = try object.string("matchingType") ?? "ANY"
        guard type == "ANY" || type == "ALL" else { throw StubProblem(pointer + "/matchingType", "\"matchingType\" must be ANY or ALL") }
        var bodyPatterns: [StringPattern] = []
        if let body = object["bodyPatterns"] {
            guard case .array(let items) = body else { throw StubProblem(pointer + "/bodyPatterns", "\"bodyPatterns\" must be an array of matchers") }
            for (i, item) in items.enumerated() { bodyPatterns.append(try StringPattern.decode(item, at: "\(pointer)/bodyPatterns/\(i)", body: true)) }
        }
        let headers = try object.map("headers") { _, value, at throws(StubProblem) in try MultiValuePattern.decode(value, at: at) }
        return MultipartPattern(all: type == "ALL", headers: headers, bodyPatterns: bodyPatterns)
    }

    func matches(_ parts: [StubMultipart.Part], now: Date) -> Bool {
        if parts.isEmpty { return false }
        return all ? parts.allSatisfy { matches($0, now: now) } : parts.contains { matches($0, now: now) }
    }

    private func matches(_ part: StubMultipart.Part, now: Date) -> Bool {
        for (name, pattern) in headers where !pattern.matches(values: part.values(name), now: now) { return false }
        let text = bodyPatterns.isEmpty ? "" : String(decoding: part.body, as: UTF8.self)
        return bodyPatterns.allSatisfy { $0.matches(body: part.body, text: text, now: now) }
    }
}
