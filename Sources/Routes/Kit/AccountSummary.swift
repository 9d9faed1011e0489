import HTTPServer
@_exported import MockAdminWire

/// The wire type of an account (`MockAdminWire`), shared with the admin client.
public typealias AccountSummary = MockAccount

extension MockAccount {
    /// The most accounts a system lists (the newest): a load test may register 100,000.
    public static let listLimit = 500
}

/// A system's accounts under its name (`rows`, `gateway`, `skyzone`, `musbooking`, `rsschool`).
public struct AccountListing: Sendable, Equatable {
    public var system: String
    public var accounts: [AccountSummary]

    public init(system: String, accounts: [AccountSummary]) {
        self.system = system
        self.accounts = accounts
    }
}

extension EmulatedSystem {
    /// Systems without accounts to show list nothing.
    public func accountListing() -> AccountListing? { nil }
}
