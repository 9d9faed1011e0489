import Routes

/// The one start-up message: where the server listens, what it serves and the default accounts.
enum Banner {
    /// `statePath`: the `--state` file; `watchedSeed`: the seed file `--watch` follows.
    static func text(baseURL: String, seedPath: String, seed: Seed, statePath: String? = nil, watchedSeed: String? = nil) -> String {
        let ws = baseURL.replacingOccurrences(of: "http://", with: "ws://")
        func pair(_ email: String?, _ password: String?) -> String {
            guard let email, let password else { return "" }
            return "   (\(email) / \(password))"
        }
        let rows = pair(seed.rows.accounts.first?.email, seed.rows.accounts.first?.password)
        let gateway = pair(seed.customerGateway.accounts.first?.email, seed.customerGateway.accounts.first?.password)
        let sky = seed.skyzone.customers.first { $0.username != nil }
        let skyzone = pair(sky?.username, sky?.password)
        let rsschool = pair(seed.rsschool.login, seed.rsschool.password)
        var kept = ""
        if let statePath {
            kept += "\n  state file       \(statePath): accounts, sessions, tokens, codes and the outbox survive a restart (written within 50 ms of a change)"
        }
        if let watchedSeed {
            kept += "\n  watching seed    \(watchedSeed): a saved edit resets every system to it; a broken edit is logged and ignored"
        }
        return """
        mock-server listening on \(baseURL)  (seed: \(seedPath))
          rows app         POST /auth/login, GET /rows/<page>\(rows)
          gateway          \(ws)/customer-gateway/customer\(gateway)
          SkyZone          POST /customer, POST /tokens, GET /customer\(skyzone)
          musbooking       /api/users/*, /api/auth/login, /api/categories/<id>
          RSSchool         POST /rsschool/authorize, POST /rsschool/secure\(rsschool)
          outbox & admin   GET /__mock/sms, GET /__mock/emails, POST /__mock/reset, GET /__mock/health\(kept)
        SMS codes and e-mails appear below and at /__mock/sms, /__mock/emails. Ctrl-C stops it.
        """
    }
}
