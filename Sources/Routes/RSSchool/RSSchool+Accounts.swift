import EmulationKit

extension RSSchool {
    /// The one login the app's rules accept (the secure sequence is a secret like the password).
    package func accountListing(_ page: AccountPage) -> AccountListing? {
        AccountListing.page("rsschool", [seed.login], page) { AccountSummary(login: $0, note: "then the secure sequence") }
    }
}
