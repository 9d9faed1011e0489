import HTTPServer
import EmulationKit

/// `GET /__mock/accounts[?system=&offset=&limit=]`: each system's accounts, a page at a time.
/// A list is never cut silently: when a system has more accounts than its page shows, the answer
/// says so in `X-Mock-Truncated` (`system=total`, for every such system) and in `X-Mock-Hint`
/// (how to ask for the next page).
package enum AccountListingAnswer {
    package static func answer(_ request: HTTPRequest, systems: [any EmulatedSystem]) -> HTTPResponse {
        let query = request.queryParameters
        let page: AccountPage
        switch (number(query["offset"], "offset", 0...Int(Int32.max)), number(query["limit"], "limit", 1...AccountSummary.listLimit)) {
        case (.success(let offset), .success(let limit)):
            page = AccountPage(offset: offset ?? 0, limit: limit ?? AccountSummary.listLimit)
        case (.failure(let problem), _), (_, .failure(let problem)):
            return ControlPlane.badRequest(problem.description)
        }
        let chosen = query["system"].map { name in systems.filter { $0.name == name } } ?? systems
        var listings: [String: [AccountSummary]] = [:]
        var partial: [AccountListing] = []
        for case let listing? in chosen.map({ $0.accountListing(page) }) {
            listings[listing.system] = listing.accounts
            if listing.isPartial { partial.append(listing) }
        }
        if let name = query["system"], listings.isEmpty {
            return ControlPlane.badRequest("\"system\" must name a system with accounts (\(systems.map(\.name).joined(separator: ", "))), not \(JSONText.quoted(name))")
        }
        var response = HTTPResponse.json(.ok, listings)
        guard !partial.isEmpty else { return response }
        response.headers.set("X-Mock-Truncated", partial.map { "\($0.system)=\($0.total)" }.joined(separator: ", "))
        let parts = partial.map { listing -> String in
            let shown = listing.accounts.isEmpty ? "none" : "\(listing.offset + 1)-\(listing.offset + listing.accounts.count)"
            let next = listing.offset + listing.accounts.count < listing.total
                ? " (next: ?system=\(listing.system)&offset=\(listing.offset + listing.accounts.count))" : ""
            return "\(listing.system) lists \(shown) of \(listing.total)\(next)"
        }
        return response.hinted("Accounts are listed at most \(AccountSummary.listLimit) a page: " + parts.joined(separator: "; ") + ".")
    }

    private struct Problem: Error, CustomStringConvertible { let description: String }

    private static func number(_ text: String?, _ name: String, _ range: ClosedRange<Int>) -> Result<Int?, Problem> {
        guard let text else { return .success(nil) }
        guard let value = Int(text), range.contains(value) else {
            return .failure(Problem(description: "\"\(name)\" must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(JSONText.quoted(text))"))
        }
        return .success(value)
    }
}
