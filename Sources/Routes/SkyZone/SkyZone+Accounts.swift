import EmulationKit

extension SkyZone {
    /// Customers, newest (highest id) first, with how each signs in and its live tokens.
    package func accountListing(_ page: AccountPage) -> AccountListing? {
        state.read { state -> AccountListing in
            var sessions: [Int: [AccountSummary.Session]] = [:]
            for (token, id) in state.tokens.values { sessions[id, default: []].append(AccountSummary.Session(token: token)) }
            var usernames: [Int: String] = [:]
            for (username, id) in state.idByUsername { usernames[id] = username }
            return AccountListing.page("skyzone", state.accounts.keys.sorted(by: >), page) { id -> AccountSummary? in
                guard let account = state.accounts[id] else { return nil }
                let profile = account.profile
                let name = [profile.firstName, profile.lastName].filter { !$0.isEmpty }.joined(separator: " ")
                let social = profile.externalType.isEmpty ? nil : "signs in with \(profile.externalType)"
                return AccountSummary(id: String(id), login: usernames[id], email: profile.email.isEmpty ? nil : profile.email,
                                      phone: profile.mobilePhoneNumber.isEmpty ? nil : profile.mobilePhoneNumber,
                                      name: name.isEmpty ? nil : name, sessions: sessions[id] ?? [],
                                      note: social ?? (account.password == nil ? nil : "signs in with a password"))
            }
        }
    }
}
