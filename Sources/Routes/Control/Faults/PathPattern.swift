/// A path to match exactly or with `*` wildcards (each matches any run of characters, `/`
/// included), ignoring ASCII letter case as musbooking's ASP.NET routing does.
package struct PathPattern: Sendable, Equatable {
    package let text: String
    private let parts: [[UInt8]]

    package init(_ text: String) {
        self.text = text
        parts = text.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map { $0.map(PathPattern.lower) }
    }

    var hasWildcard: Bool { parts.count > 1 }

    package func matches(_ path: String) -> Bool {
        let subject = path.utf8.map(PathPattern.lower)
        guard parts.count > 1 else { return subject == parts[0] }
        let first = parts[0], last = parts[parts.count - 1]
        guard subject.count >= first.count + last.count,
              subject.starts(with: first), subject.suffix(last.count).elementsEqual(last) else { return false }
        // Greedy left-to-right search of the middle parts between the fixed prefix and suffix.
        var position = first.count
        let end = subject.count - last.count
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = PathPattern.find(part, in: subject, from: position, end: end) else { return false }
            position = found + part.count
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, end: Int) -> Int? {
        guard end - from >= needle.count else { return nil }
        for i in from...(end - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    package static func == (a: PathPattern, b: PathPattern) -> Bool { a.text == b.text }
}
