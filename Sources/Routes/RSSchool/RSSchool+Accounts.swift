import EmulationKit

extension RSSchool {
    /// The one login the app's rules accept (the secure sequence is a secret like the password).
    public func accountListing() -> AccountListing? {
        AccountListing(system: "rsschool", accounts: [AccountSummary(login: seed.login, note: "then the secure sequence")])
    }
}
