import Routes

/// The one start-up message: where the server listens, what it serves and the default accounts.
enum Banner {
    static func text(baseURL: String, seedPath: String, seed: Seed) -> String {
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
        return """
        mock-server listening on \(baseURL)  (seed: \(seedPath))
          rows app         POST /auth/login, GET /rows/<page>\(rows)
          gateway          \(ws)/customer-gateway/customer\(gateway)
          SkyZone          POST /customer, POST /tokens, GET /customer\(skyzone)
          musbooking       /api/users/*, /api/auth/login, /api/categories/<id>
          RSSchool         POST /rsschool/authorize, POST /rsschool/secure\(rsschool)
          outbox & admin   GET /__mock/sms, GET /__mock/emails, POST /__mock/reset, GET /__mock/health
        SMS codes and e-mails appear below and at /__mock/sms, /__mock/emails. Ctrl-C stops it.
        """
    }
}
