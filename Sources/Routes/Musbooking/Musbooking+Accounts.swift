#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EmulationKit

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
                Musbooking.summary(of: user, sessions: sessions[user.id.lowercased()] ?? [])
            }
        }
        return AccountListing(system: "musbooking", accounts: accounts)
    }
}
