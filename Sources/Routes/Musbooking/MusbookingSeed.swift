import Foundation

/// The `musbooking` section of `seed.json`: settings, accounts and customer records, categories.
public struct MusbookingSeed: Decodable, Sendable {
    /// How long a login token lives (the original: at most 24 hours).
    var tokenLifetimeSeconds: Int
    /// Digits in an SMS code; codes are drawn from 10^(n-1)+1 … 10^n−2 (4 → 1001…9998).
    var smsCodeLength: Int
    /// Length of a password the server generates (register without one, restore).
    var generatedPasswordLength: Int
    var users: [MusbookingUser]
    var categories: [MusbookingCategory]

    private enum CodingKeys: String, CodingKey {
        case tokenLifetimeSeconds, smsCodeLength, generatedPasswordLength, users, categories
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tokenLifetimeSeconds = try c.decodeIfPresent(Int.self, forKey: .tokenLifetimeSeconds) ?? 86_400
        smsCodeLength = try c.decodeIfPresent(Int.self, forKey: .smsCodeLength) ?? 4
        generatedPasswordLength = try c.decodeIfPresent(Int.self, forKey: .generatedPasswordLength) ?? 6
        users = try c.decodeIfPresent([MusbookingUser].self, forKey: .users) ?? []
        categories = try c.decodeIfPresent([MusbookingCategory].self, forKey: .categories) ?? []
        // Bad settings are caught at start-up, so no request can hit an impossible range later.
        guard tokenLifetimeSeconds > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .tokenLifetimeSeconds, in: c, debugDescription: "must be positive")
        }
        guard (1...9).contains(smsCodeLength) else {
            throw DecodingError.dataCorruptedError(forKey: .smsCodeLength, in: c, debugDescription: "must be 1…9")
        }
        // A generated password must itself pass the password rule (6 characters, a digit).
        guard (MusbookingRules.minimumPasswordLength...64).contains(generatedPasswordLength) else {
            throw DecodingError.dataCorruptedError(forKey: .generatedPasswordLength, in: c, debugDescription: "must be 6…64")
        }
        if let duplicate = MusbookingSeed.firstDuplicate(users.map(\.id)) {
            throw DecodingError.dataCorruptedError(forKey: .users, in: c, debugDescription: "duplicate user id \(duplicate)")
        }
        if let duplicate = MusbookingSeed.firstDuplicate(users.compactMap { $0.login?.lowercased() }) {
            throw DecodingError.dataCorruptedError(forKey: .users, in: c, debugDescription: "duplicate login \(duplicate)")
        }
        if let duplicate = MusbookingSeed.firstDuplicate(users.compactMap(\.phone)) {
            throw DecodingError.dataCorruptedError(forKey: .users, in: c, debugDescription: "duplicate phone \(duplicate)")
        }
        if let duplicate = MusbookingSeed.firstDuplicate(categories.map { String($0.id) }) {
            throw DecodingError.dataCorruptedError(forKey: .categories, in: c, debugDescription: "duplicate category id \(duplicate)")
        }
    }

    private static func firstDuplicate(_ values: [String]) -> String? {
        var seen = Set<String>()
        for value in values where !seen.insert(value).inserted { return value }
        return nil
    }
}

/// A partner zone entry of a user's `parts`.
struct MusbookingPart: Decodable, Sendable, Equatable {
    var domainId: String
    var name: String
    var forfeit: Double
    var isBanned: Bool
    var discount: Int

    var jsonObject: [String: Any] {
        ["domainId": domainId, "name": name, "forfeit": forfeit, "isBanned": isBanned, "discount": discount]
    }
}

/// A category from the seed, served as written there; `id` is its numeric key.
struct MusbookingCategory: Decodable, Sendable {
    var id: Int
    var fields: [String: MusbookingJSON]

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        fields = try c.decode([String: MusbookingJSON].self)
        guard case .int(let id)? = fields["id"] else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a category needs an integer \"id\"")
        }
        self.id = id
    }

    var jsonObject: [String: Any] { fields.mapValues(\.foundationObject) }
}

/// Any JSON value, kept as decoded so seed objects can be served back unchanged.
// Not `indirect`: the recursion already goes through Array and Dictionary storage, and the
// compiler leaked the boxes an `indirect` enum allocates when `init(from:)` assigns `self`
// (LeakSanitizer: 888 bytes per seed load, which made ASan runs of the executable exit 1).
enum MusbookingJSON: Decodable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([MusbookingJSON])
    case object([String: MusbookingJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        // Bool before numbers and Int before Double, so `true` and `1` keep their JSON form.
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([MusbookingJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: MusbookingJSON].self)) }
    }

    /// The value as `JSONSerialization` objects (`NSNull` for null, so the key is kept).
    var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .string(let s): return s
        case .array(let a): return a.map(\.foundationObject)
        case .object(let o): return o.mapValues(\.foundationObject)
        }
    }
}
