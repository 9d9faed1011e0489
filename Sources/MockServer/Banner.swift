import MockServerKit
import Routes

/// The one start-up message: version, where the server listens, which seed, what it serves and
/// the default accounts; listening on every interface, the URLs a device can use.
enum Banner {
    /// `seedName` is "bundled seed" or the seed file's path; `deviceAddresses` the machine's
    /// non-loopback addresses when it listens on every interface (empty otherwise); `statePath`
    /// the `--state` file; `watchedSeed` the seed file `--watch` follows.
    static func text(host: String, port: Int, seedName: String, seed: Seed, deviceAddresses: [String], adminTokenSet: Bool,
                     statePath: String? = nil, watchedSeed: String? = nil) -> String {
        let everyInterface = host == "0.0.0.0" || host == "::"
        let local = everyInterface ? (host == "::" ? "::1" : "127.0.0.1") : host
        let baseURL = url(local, port)
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
        var text = """
        mock-server \(MockServerVersion.current) listening on \(baseURL)  (seed: \(seedName))
          rows app         POST /auth/login, GET /rows/<page>\(rows)
          gateway          \(ws)/customer-gateway/customer\(gateway)
          SkyZone          POST /customer, POST /tokens, GET /customer\(skyzone)
          musbooking       /api/users/*, /api/auth/login, /api/categories/<id>
          RSSchool         POST /rsschool/authorize, POST /rsschool/secure\(rsschool)
          outbox & admin   GET /__mock/sms, GET /__mock/emails, POST /__mock/reset, GET /__mock/health\(kept)
        """
        if everyInterface {
            if deviceAddresses.isEmpty {
                text += "\nListening on every interface, but this machine has no non-loopback address right now."
            } else {
                text += "\nFrom a device on the same network:"
                for address in deviceAddresses { text += "\n  \(url(address, port))" }
            }
            text += adminTokenSet
                ? "\n/__mock/* answers other machines that send the header X-Mock-Admin-Token (the --admin-token value)."
                : "\n/__mock/* answers this machine only; start with --admin-token TOKEN to open it to devices (header X-Mock-Admin-Token)."
        }
        text += "\nSMS codes and e-mails appear below and at /__mock/sms, /__mock/emails. Ctrl-C stops it."
        return text
    }

    private static func url(_ host: String, _ port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
