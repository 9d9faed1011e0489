import HTTPServer

/// One account as the web console shows it: who it is and its state, never its password;
/// tokens only as their first 4 characters and `…`.
public struct AccountSummary: Codable, Sendable, Equatable {
    /// A live login session of the account.
    public struct Session: Codable, Sendable, Equatable {
        public var token: String
        public var expiresAt: String?

        public init(token: String, expiresAt: String? = nil) {
            self.token = AccountSummary.shorten(token)
            self.expiresAt = expiresAt
        }
    }

    public var id: String?
    public var login: String?
    public var email: String?
    public var phone: String?
    public var name: String?
    public var isConfirmed: Bool?
    /// nil where the system does not keep sessions (signed, stateless tokens).
    public var sessions: [Session]?
    /// A short remark the console shows as is (e.g. how the account signs in).
    public var note: String?

    public init(id: String? = nil, login: String? = nil, email: String? = nil, phone: String? = nil, name: String? = nil,
                isConfirmed: Bool? = nil, sessions: [Session]? = nil, note: String? = nil) {
        self.id = id
        self.login = login
        self.email = email
        self.phone = phone
        self.name = name
        self.isConfirmed = isConfirmed
        self.sessions = sessions
        self.note = note
    }

    /// A token as the console and the journal show it: its first 4 characters and `…`.
    public static func shorten(_ token: String) -> String {
        token.count <= 4 ? "…" : String(token.prefix(4)) + "…"
    }

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
