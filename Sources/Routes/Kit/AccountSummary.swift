import HTTPServer

extension AccountSummary {
    /// The most accounts a system lists at once (a page): a load test may register 100,000.
    package static let listLimit = 500
}

/// Which accounts of a system's order to list: `limit` of them from `offset` on.
package struct AccountPage: Sendable, Equatable {
    package var offset: Int
    package var limit: Int

    package init(offset: Int = 0, limit: Int = AccountSummary.listLimit) {
        self.offset = max(0, offset)
        self.limit = min(max(1, limit), AccountSummary.listLimit)
    }

    /// The first page.
    package static let first = AccountPage()

    /// The positions of this page among `total` accounts.
    package func range(of total: Int) -> Range<Int> {
        let start = min(offset, total)
        return start..<min(total, start + limit)
    }
}

/// A page of a system's accounts under its name (`rows`, `gateway`, `skyzone`, `musbooking`,
/// `rsschool`), and how many it has in all.
package struct AccountListing: Sendable, Equatable {
    package var system: String
    package var accounts: [AccountSummary]
    /// Every account of the system, listed or not.
    package var total: Int
    /// Where the page starts in the system's order.
    package var offset: Int

    package init(system: String, accounts: [AccountSummary], total: Int? = nil, offset: Int = 0) {
        self.system = system
        self.accounts = accounts
        self.total = total ?? accounts.count
        self.offset = offset
    }

    /// Whether accounts exist beyond this page (before or after it).
    package var isPartial: Bool { offset > 0 || offset + accounts.count < total }

    /// The page of `all` (already in the system's order) that `page` names, made into summaries.
    package static func page<T>(_ system: String, _ all: [T], _ page: AccountPage, _ summary: (T) -> AccountSummary?) -> AccountListing {
        let range = page.range(of: all.count)
        return AccountListing(system: system, accounts: all[range].compactMap(summary), total: all.count, offset: range.lowerBound)
    }
}

extension EmulatedSystem {
    /// Systems without accounts to show list nothing.
    package func accountListing(_ page: AccountPage) -> AccountListing? { nil }

    /// The first page of the system's accounts.
    package func accountListing() -> AccountListing? { accountListing(.first) }
}
