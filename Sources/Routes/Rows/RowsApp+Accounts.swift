import EmulationKit

extension RowsApp {
    /// The seeded logins; tokens are signed, not stored, so there are no sessions to list.
    public func accountListing() -> AccountListing? {
        AccountListing(system: "rows", accounts: accounts.all.keys.sorted().map {
            AccountSummary(login: $0, email: $0, note: "tokens are signed and never expire")
        })
    }
}
