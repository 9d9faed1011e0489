import EmulationKit

extension RowsApp {
    /// The seeded logins; tokens are signed, not stored, so there are no sessions to list.
    package func accountListing(_ page: AccountPage) -> AccountListing? {
        AccountListing.page("rows", accounts.all.keys.sorted(), page) {
            AccountSummary(login: $0, email: $0, note: "tokens are signed and never expire")
        }
    }
}
