#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The `musbooking` section of `seed.json`: settings, accounts and customer records, categories.
package struct MusbookingSeed: Decodable, Sendable {
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

    package init(from decoder: any Decoder) throws {
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
struct MusbookingPart: Codable, Sendable, Equatable {
    var domainId: String
    var name: String
    var forfeit: Double
    var isBanned: Bool
    var discount: Int

    var json: JSONValue {
        ["domainId": .string(domainId), "name": .string(name), "forfeit": .number(forfeit), "isBanned": .bool(isBanned),
         "discount": .number(Double(discount))]
    }
}

/// A category from the seed, served as written there; `id` is its numeric key.
struct MusbookingCategory: Decodable, Sendable {
    package var id: Int
    var fields: JSONValue

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        fields = try c.decode(JSONValue.self)
        guard case .number(let n)? = fields["id"], let id = Int(exactly: n) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a category needs an integer \"id\"")
        }
        self.id = id
    }
}
