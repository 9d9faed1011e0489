import HTTPServer

extension AccountSummary {
    /// The most accounts a system lists at once (a page): a load test may register 100,000.
    public static let listLimit = 500
}

/// Which accounts of a system's order to list: `limit` of them from `offset` on.
public struct AccountPage: Sendable, Equatable {
    public var offset: Int
    public var limit: Int

    public init(offset: Int = 0, limit: Int = AccountSummary.listLimit) {
        self.offset = max(0, offset)
        self.limit = min(max(1, limit), AccountSummary.listLimit)
    }

    /// The first page.
    public static let first = AccountPage()

    /// The positions of this page among `total` accounts.
    public func range(of total: Int) -> Range<Int> {
        let start = min(offset, total)
        return start..<min(total, start + limit)
    }
}

/// A page of a system's accounts under its name (`rows`, `gateway`, `skyzone`, `musbooking`,
/// `rsschool`), and how many it has in all.
public struct AccountListing: Sendable, Equatable {
    public var system: String
    public var accounts: [AccountSummary]
    /// Every account of the system, listed or not.
    public var total: Int
    /// Where the page starts in the system's order.
    public var offset: Int

    public init(system: String, accounts: [AccountSummary], total: Int? = nil, offset: Int = 0) {
        self.system = system
        self.accounts = accounts
        self.total = total ?? accounts.count
        self.offset = offset
    }

    /// Whether accounts exist beyond this page (before or after it).
    public var isPartial: Bool { offset > 0 || offset + accounts.count < total }

    /// The page of `all` (already in the system's order) that `page` names, made into summaries.
    package static func page<T>(_ system: String, _ all: [T], _ page: AccountPage, _ summary: (T) -> AccountSummary?) -> AccountListing {
        let range = page.range(of: all.count)
        return AccountListing(system: system, accounts: all[range].compactMap(summary), total: all.count, offset: range.lowerBound)
    }
}

extension EmulatedSystem {
    /// Systems without accounts to show list nothing.
    public func accountListing(_ page: AccountPage) -> AccountListing? { nil }

    /// The first page of the system's accounts.
    public func accountListing() -> AccountListing? { accountListing(.first) }
}
