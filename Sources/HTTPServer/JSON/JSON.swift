#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON helpers shared by the transport and the routes; none of them can trap on input.
package enum JSON {
    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Encodes a value; an unencodable value (never produced by our own types) becomes `null`.
    package static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // JSONEncoder is documented thread-safe for encode calls on a shared instance.
        guard let data = try? encoder.encode(value) else { return Array("null".utf8) }
        return Array(data)
    }
}
