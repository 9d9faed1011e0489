#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// Everything musbooking remembers; lives in one `Locked`. Every lookup a request makes is a
/// hash lookup (by id, login, phone, e-mail, token): no request walks all users.
struct MusbookingState: Sendable {
    /// A login session: one per user, ended by the next login or by its expiry.
    struct Session: Sendable, Equatable {
        var userId: String
        var expiresAt: Date
    }

    /// Users (accounts and customer records) by id, lower-case.
    private(set) var users: [String: MusbookingUser] = [:]
    /// User ids in the order they were added (seed first): the order the state file lists them in,
    /// so a write re-encodes only the users added since the last one.
    private(set) var order: [String] = []
    /// Account ids by login, case-folded.
    private var idByLogin: [String: String] = [:]
    /// Account ids by normalised phone.
    private var accountIdByPhone: [String: String] = [:]
    /// Customer records (no login yet) by normalised phone.
    private var customerIdByPhone: [String: String] = [:]
    /// Account ids by e-mail, case-folded, oldest first: accounts may share an address (only
    /// `users/sms` checks uniqueness, as the original does).
    private var idsByEmail: [String: [String]] = [:]
    /// SMS codes by normalised phone; no expiry (as the original), replaced by a newer `sms`.
    var codes: PendingCodes
    /// Sessions by token, and each user's one token.
    private(set) var sessions: [String: Session] = [:]
    /// Users and sessions changed since the change log last looked (codes keep their own).
    var touchedUsers = TouchedKeys(), touchedSessions = TouchedKeys()
    private var tokenByUser: [String: String] = [:]
    let categories: [Int: MusbookingCategory]
    private(set) var accountCount = 0

    init(seed: MusbookingSeed, maxPendingCodes: Int) {
        self.init(categories: seed.categories, maxPendingCodes: maxPendingCodes)
        for user in seed.users { insert(user) }
    }

    private init(categories: [MusbookingCategory], maxPendingCodes: Int) {
        codes = PendingCodes(capacity: maxPendingCodes)
        self.categories = Dictionary(categories.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - Lookups

    func user(id: String) -> MusbookingUser? { users[id.lowercased()] }

    /// The account whose login is this, letter case aside (`UserLoginProvider`).
    func account(login: String) -> MusbookingUser? { idByLogin[login.lowercased()].flatMap { users[$0] } }

    /// The account (not a bare customer record) on this normalised phone.
    func account(phone: String) -> MusbookingUser? { accountIdByPhone[phone].flatMap { users[$0] } }

    /// The customer record without a login on this normalised phone.
    func customer(phone: String) -> MusbookingUser? { customerIdByPhone[phone].flatMap { users[$0] } }

    /// The account using this e-mail address (any case).
    func account(email: String) -> MusbookingUser? { idsByEmail[email.lowercased()]?.first.flatMap { users[$0] } }

    // MARK: - Changes (callers validate first: none of these can fail)

    /// Adds a user (account or customer record) and indexes it.
    mutating func insert(_ user: MusbookingUser) {
        touchedUsers.touch(user.id)
        if let old = users.updateValue(user, forKey: user.id) { unindex(old) } else { order.append(user.id) }
        index(user)
    }

    /// Replaces a user's record, keeping the indexes in step with its login, phone and e-mail.
    mutating func update(_ user: MusbookingUser) {
        touchedUsers.touch(user.id)
        if let old = users[user.id] { unindex(old) }
        users[user.id] = user
        index(user)
    }

    private mutating func index(_ user: MusbookingUser) {
        if user.isAccount {
            accountCount += 1
            if let login = user.login { idByLogin[login.lowercased()] = user.id }
            if let phone = user.phone { accountIdByPhone[phone] = user.id }
            if let email = user.email { idsByEmail[email.lowercased(), default: []].append(user.id) }
        } else if let phone = user.phone {
            customerIdByPhone[phone] = user.id
        }
    }

    private mutating func unindex(_ user: MusbookingUser) {
        if user.isAccount {
            accountCount -= 1
            if let login = user.login, idByLogin[login.lowercased()] == user.id { idByLogin[login.lowercased()] = nil }
            if let phone = user.phone, accountIdByPhone[phone] == user.id { accountIdByPhone[phone] = nil }
            if let email = user.email?.lowercased(), var ids = idsByEmail[email] {
                ids.removeAll { $0 == user.id }
                idsByEmail[email] = ids.isEmpty ? nil : ids
            }
        } else if let phone = user.phone, customerIdByPhone[phone] == user.id {
            customerIdByPhone[phone] = nil
        }
    }

    /// Removes a user (account or customer record) and its session; false if there is none.
    mutating func remove(id: String) -> Bool {
        let key = id.lowercased()
        guard let user = users.removeValue(forKey: key) else { return false }
        touchedUsers.touch(key)
        unindex(user)
        order.removeAll { $0 == key }
        if let token = tokenByUser.removeValue(forKey: key) {
            sessions[token] = nil
            touchedSessions.touch(token)
        }
        return true
    }

    /// Starts the user's session under `token`, ending the one before (one session per user).
    mutating func startSession(_ token: String, userId: String, expiresAt: Date) {
        if let old = tokenByUser[userId] {
            sessions[old] = nil
            touchedSessions.touch(old)
        }
        touchedSessions.touch(token)
        sessions[token] = Session(userId: userId, expiresAt: expiresAt)
        tokenByUser[userId] = token
    }

    /// Ends one session (nil: every session); how many ended.
    mutating func endSessions(_ token: String?) -> Int {
        guard let token else {
            let count = sessions.count
            sessions = [:]
            tokenByUser = [:]
            touchedSessions.touchAll()
            return count
        }
        guard let session = sessions.removeValue(forKey: token) else { return 0 }
        touchedSessions.touch(token)
        if tokenByUser[session.userId] == token { tokenByUser[session.userId] = nil }
        return 1
    }

    /// Makes one session (nil: every session) expired as of `now`; how many.
    mutating func expireSessions(_ token: String?, now: Date) -> Int {
        let past = now.addingTimeInterval(-1)
        guard let token else {
            for key in sessions.keys { sessions[key]?.expiresAt = past }
            touchedSessions.touchAll()
            return sessions.count
        }
        guard sessions[token] != nil else { return 0 }
        touchedSessions.touch(token)
        sessions[token]?.expiresAt = past
        return 1
    }
}

extension MusbookingState {
    /// The state kept in the state file (`users` in `order`, codes oldest first, sessions) over
    /// the categories of `seed`, checked as the seed is: the file is input, so a user id, login or
    /// phone twice, or a session of nobody, is refused rather than indexed into a state no request could reach.
    init(seed: MusbookingSeed, maxPendingCodes: Int, users: [MusbookingUser], codes: [(phone: String, code: String)],
         sessions: [(token: String, session: Session)]) throws(StateRestoreError) {
        self.init(categories: seed.categories, maxPendingCodes: maxPendingCodes)
        var logins = Set<String>(), phones = Set<String>()
        for user in users {
            guard !user.id.isEmpty else { throw StateRestoreError("users: a user with an empty id") }
            guard self.users[user.id] == nil else { throw StateRestoreError("users: user id \(user.id) twice") }
            if user.isAccount, let login = user.login, !logins.insert(login.lowercased()).inserted {
                throw StateRestoreError("users: login \(JSONText.quoted(login)) twice")
            }
            if let phone = user.phone, !phones.insert(phone).inserted {
                throw StateRestoreError("users: phone \(phone) twice")
            }
            insert(user)
        }
        for (phone, code) in codes {
            guard !phone.isEmpty, !code.isEmpty else { throw StateRestoreError("codes: an empty phone or code") }
            _ = self.codes.set(code, for: phone)
        }
        for (token, session) in sessions {
            guard self.users[session.userId]?.isAccount == true else {
                throw StateRestoreError("sessions: token \(token) belongs to no account (user id \(session.userId))")
            }
            guard tokenByUser[session.userId] == nil else {
                throw StateRestoreError("sessions: two sessions for user \(session.userId) (one session per user)")
            }
            guard self.sessions[token] == nil else { throw StateRestoreError("sessions: token \(token) twice") }
            startSession(token, userId: session.userId, expiresAt: session.expiresAt)
        }
    }
}
