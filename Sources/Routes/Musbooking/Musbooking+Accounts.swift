import Foundation

extension Musbooking {
    /// Accounts and seeded customer records (by id, at most `listLimit`), with confirmation and live sessions.
    public func accountListing() -> AccountListing? {
        let accounts = state.read { state -> [AccountSummary] in
            var sessions: [String: [AccountSummary.Session]] = [:]
            for (token, session) in state.sessions {
                sessions[session.userId.lowercased(), default: []]
                    .append(AccountSummary.Session(token: token, expiresAt: ISO8601.string(session.expiresAt)))
            }
            return state.users.values.sorted { $0.id < $1.id }.prefix(AccountSummary.listLimit).map { user in
                let name = [user.firstName, user.lastName, user.surName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                return AccountSummary(id: user.id, login: user.login, email: user.email, phone: user.phone,
                                      name: name.isEmpty ? nil : name, isConfirmed: user.isConfirmed,
                                      sessions: sessions[user.id.lowercased()] ?? [],
                                      note: user.isAccount ? nil : "customer record without an account (registering this phone attaches one)")
            }
        }
        return AccountListing(system: "musbooking", accounts: accounts)
    }
}
