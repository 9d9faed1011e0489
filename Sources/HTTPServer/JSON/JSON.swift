import Foundation

/// JSON helpers shared by the transport and the routes; none of them can trap on input.
public enum JSON {
    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Encodes a value; an unencodable value (never produced by our own types) becomes `null`.
    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // JSONEncoder is documented thread-safe for encode calls on a shared instance.
        guard let data = try? encoder.encode(value) else { return Array("null".utf8) }
        return Array(data)
    }

    /// Serialises Foundation objects with sorted keys; invalid objects become `null`.
    public static func serialize(_ object: Any) -> [UInt8] {
        guard JSONSerialization.isValidJSONObject(object) || object is String || object is NSNumber || object is NSNull,
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return Array("null".utf8) }
        return Array(data)
    }

    /// Parses bytes into Foundation objects, or nil when they are not JSON.
    public static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// True when a number from `JSONSerialization` was a JSON `true`/`false`.
    public static func isBool(_ n: NSNumber) -> Bool {
        // objCType is "c" for booleans on both Darwin and swift-corelibs-foundation.
        String(cString: n.objCType) == "c"
    }

    /// Parses bytes into a JSON object (`{…}`), or nil when they are something else.
    public static func parseObject(_ bytes: [UInt8]) -> [String: Any]? {
        parse(bytes) as? [String: Any]
    }
}
