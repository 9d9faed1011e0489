import Foundation

/// Everything musbooking remembers; lives in one `Locked` and is replaced whole by `reset`.
struct MusbookingState: Sendable {
    /// A login session: one per user, ended by the next login or by its expiry.
    struct Session: Sendable {
        var userId: String
        var expiresAt: Date
    }

    var users: [MusbookingUser]
    /// SMS codes by normalised phone; no expiry (as the original), replaced by a newer `sms`.
    var codes: [String: String] = [:]
    /// Sessions by token.
    var sessions: [String: Session] = [:]
    let categories: [Int: MusbookingCategory]

    init(seed: MusbookingSeed) {
        users = seed.users
        categories = Dictionary(seed.categories.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func index(ofUserId id: String) -> Int? {
        users.firstIndex { $0.id.equalsIgnoringASCIICase(id) }
    }

    /// The account (not a bare customer record) on this normalised phone.
    func accountIndex(phone: String) -> Int? {
        users.firstIndex { $0.isAccount && $0.phone == phone }
    }

    /// The account whose login is this (any case), else whose phone is this written in any form:
    /// the phone is the default login, and clients send it as the user typed it.
    func accountIndex(login: String) -> Int? {
        if let i = users.firstIndex(where: { $0.isAccount && ($0.login?.equalsIgnoringASCIICase(login) ?? false) }) {
            return i
        }
        guard let phone = MusbookingRules.normalizedPhone(login) else { return nil }
        return accountIndex(phone: phone)
    }

    /// The account using this e-mail address (any case), other than `exceptIndex`.
    func accountIndex(email: String, except exceptIndex: Int? = nil) -> Int? {
        users.indices.first { i in
            i != exceptIndex && users[i].isAccount && (users[i].email?.lowercased() == email.lowercased())
        }
    }
}
