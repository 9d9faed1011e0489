import EmulationKit

extension CustomerGateway {
    /// The seeded customers; tokens are signed, not stored, so only their count is known.
    package func accountListing(_ page: AccountPage) -> AccountListing? {
        let issued = tokens.issuedSinceRotation
        return AccountListing.page("gateway", accounts.all.values.sorted { $0.email < $1.email }, page) {
            AccountSummary(id: $0.customerId, login: $0.email, email: $0.email,
                           note: "tokens are signed, not stored; \(issued) issued to all customers since the last reset")
        }
    }
}
