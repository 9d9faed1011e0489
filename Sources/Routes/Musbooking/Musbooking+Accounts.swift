#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EmulationKit

extension Musbooking {
    /// Accounts and seeded customer records (by id), with confirmation and live sessions.
    package func accountListing(_ page: AccountPage) -> AccountListing? {
        state.read { state -> AccountListing in
            var sessions: [String: [AccountSummary.Session]] = [:]
            for (token, session) in state.sessions {
                sessions[session.userId.lowercased(), default: []]
                    .append(AccountSummary.Session(token: token, expiresAt: session.expiresAt))
            }
            return AccountListing.page("musbooking", state.users.values.sorted { $0.id < $1.id }, page) { user in
                Musbooking.summary(of: user, sessions: sessions[user.id.lowercased()] ?? [])
            }
        }
    }
}
