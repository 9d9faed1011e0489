import Foundation
import HTTPServer

// JSONSerialization helpers for tests only: the server itself uses JSONValue and leaves full
// Foundation (and ICU) out on Linux, so these live here, not in HTTPServer. On Darwin the parsed
// numbers are NSNumber, which bridges 0/1 to Bool and true to 1: `as? Bool` there accepts a 0, so
// a test that must tell `false` from `0` compares JSONValue (docs/darwin-differences.md).
extension JSON {
    /// Serialises Foundation objects with sorted keys; invalid objects become `null`.
    package static func serialize(_ object: Any) -> [UInt8] {
        guard JSONSerialization.isValidJSONObject(object) || object is String || object is NSNumber || object is NSNull,
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return Array("null".utf8) }
        return Array(data)
    }

    /// Parses bytes into Foundation objects, or nil when they are not JSON.
    package static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Parses bytes into a JSON object (`{…}`), or nil when they are something else.
    package static func parseObject(_ bytes: [UInt8]) -> [String: Any]? {
        parse(bytes) as? [String: Any]
    }
}

extension HTTPResponse {
    /// A JSON body from Foundation objects (`[String: Any]`, arrays, strings, numbers, `NSNull`).
    package static func json(_ status: HTTPStatus = .ok, object: Any) -> HTTPResponse {
        json(status, bytes: JSON.serialize(object))
    }
}
