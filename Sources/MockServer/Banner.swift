import Routes

/// The one start-up message: where the server listens and what it serves.
enum Banner {
    static func text(baseURL: String, seedPath: String, seed: Seed) -> String {
        let ws = baseURL.replacingOccurrences(of: "http://", with: "ws://")
        return """
        mock-server listening on \(baseURL)  (seed: \(seedPath))
          rows app         POST \(baseURL)/auth/login, GET /rows/<page>
          gateway          \(ws)/customer-gateway/customer (LOGIN_CUSTOMER)
          SkyZone          POST /customer, POST /tokens, GET /customer
          musbooking       /api/users/*, /api/auth/login, /api/categories/<id>
          RSSchool         POST /rsschool/authorize, POST /rsschool/secure
          outbox & admin   GET /__mock/sms, GET /__mock/emails, POST /__mock/reset, GET /__mock/health
        Ctrl-C stops it.
        """
    }
}
