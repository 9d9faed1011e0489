import Routes
import EmulationKit

/// The one start-up message: version, where the server listens, which seed, what each system
/// serves and its seed account (as the systems declare them), the console, the state file and
/// the watched seed when set, and, listening on every interface, the URLs a device can use.
enum Banner {
    /// What the banner reports; everything but the systems is known only once the server runs.
    struct Facts {
        var host: String
        var port: Int
        /// "bundled seed" or the seed file's path.
        var seedName: String
        var systems: [any EmulatedSystem]
        /// The machine's non-loopback addresses when it listens on every interface (empty otherwise).
        var deviceAddresses: [String] = []
        /// `--admin-token`, for the console's sign-in URL (nil or empty: not set).
        var adminToken: String?
        /// The token was generated (`--admin-token` with no value): the banner shows it.
        var adminTokenGenerated = false
        var statePath: String?
        var watchedPath: String?
        /// `--mappings DIR`: what loaded from it.
        var stubs: Stubs? = nil
        /// `--watch` with `--mappings`: the mappings folder polled.
        var watchedMappings: String? = nil
        /// `--max-connections`, and the limit in force (lower when `ulimit -n` allows fewer).
        var configuredConnections = 0
        var connectionLimit = 0
    }

    /// The stubs `--mappings DIR` loaded, and how many of its mappings were refused.
    struct Stubs {
        var count: Int
        var folder: String
        var refused: Int
    }

    /// Lines are wrapped at this width (continuations indented under the first endpoint).
    static let width = 110
    private static let labelWidth = 17

    /// The URL this machine reaches the server at (loopback when it listens on every interface).
    static func listeningURL(host: String, port: Int) -> String {
        url(host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host, port)
    }

    static func text(_ facts: Facts) -> String {
        let everyInterface = facts.host == "0.0.0.0" || facts.host == "::"
        let token = (facts.adminToken ?? "").isEmpty ? nil : facts.adminToken
        let local = everyInterface ? (facts.host == "::" ? "::1" : "127.0.0.1") : facts.host
        let baseURL = listeningURL(host: facts.host, port: facts.port)
        let ws = "ws://" + baseURL.dropFirst("http://".count)
        var lines = ["mock-server \(MockServerVersion.current) listening on \(baseURL)  (seed: \(facts.seedName))"]
        for system in facts.systems {
            let endpoints = system.endpoints.map { endpoint in
                let path = readablePath(endpoint.path)
                return endpoint.method == "WS" ? ws + path : "\(endpoint.method) \(path)"
            }
            let account = system.seedAccount.map { ["(\($0))"] } ?? []
            lines += wrapped(label: system.name, items: endpoints + account)
        }
        lines += wrapped(label: "outbox & admin", items: ["GET /__mock/sms", "GET /__mock/emails", "POST /__mock/reset", "GET /__mock/health"])
        lines += wrapped(label: "console", items: ["\(baseURL)/__mock/  (inbox, accounts, requests, faults, clock)"])
        if let stubs = facts.stubs {
            // Refused mappings are named in the log above and listed over HTTP, never dropped silently.
            let refused = stubs.refused == 0 ? "(WireMock's admin API: /__admin/mappings)"
                : "\(stubs.refused) refused: see GET /__admin/mappings/refused and the log above"
            lines += wrapped(label: "stubs", items: ["\(stubs.count) from \(stubs.folder)", refused])
        }
        if let statePath = facts.statePath {
            lines += wrapped(label: "state", items: ["kept in \(statePath) (a change is answered once it is on disk; POST /__mock/reset puts it back to the seed)"])
        }
        if let watchedPath = facts.watchedPath {
            lines += wrapped(label: "watching", items: ["\(watchedPath): saving it reloads the seed"])
        }
        if let watchedMappings = facts.watchedMappings {
            lines += wrapped(label: "watching", items: ["\(watchedMappings): saving a mapping file reloads the stubs"])
        }
        if facts.connectionLimit < facts.configuredConnections {
            lines += wrapped(label: "connections", items: [
                "at most \(facts.connectionLimit), not \(facts.configuredConnections): the open-file limit (ulimit -n) allows no more",
            ])
        }
        if everyInterface {
            if facts.deviceAddresses.isEmpty {
                lines.append("Listening on every interface, but this machine has no non-loopback address right now.")
            } else {
                lines.append("From a device on the same network:")
                for address in facts.deviceAddresses { lines.append("  \(url(address, facts.port))") }
            }
            lines.append(token != nil
                ? "/__mock/* answers other machines that send the header X-Mock-Admin-Token (the --admin-token value)."
                : "/__mock/* answers this machine only; start with --admin-token TOKEN to open it to devices (header X-Mock-Admin-Token).")
        }
        if let token, facts.adminTokenGenerated {
            lines.append("Admin token (generated for this run): \(token)  (send it as X-Mock-Admin-Token)")
        }
        if let token {
            // A browser cannot send the header: this address signs it in with a cookie once.
            let hosts = everyInterface ? (facts.deviceAddresses.isEmpty ? [local] : facts.deviceAddresses) : [facts.host]
            lines.append("The console from a phone or another machine (opened once, a cookie keeps it signed in):")
            for address in hosts { lines.append("  \(url(address, facts.port))/__mock/?token=\(queryEscaped(token))") }
        }
        lines.append("SMS codes and e-mails appear below and at /__mock/sms, /__mock/emails. Ctrl-C stops it.")
        return lines.joined(separator: "\n")
    }

    /// `/rows/:page` → `/rows/<page>`: the banner is read by people, not routers.
    static func readablePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") ? "<\(part.dropFirst())>" : String(part)
        }.joined(separator: "/")
    }

    /// `  label            item, item, …`, continued on indented lines past `width`.
    private static func wrapped(label: String, items: [String]) -> [String] {
        let indent = String(repeating: " ", count: 2 + labelWidth)
        var lines: [String] = []
        var line = "  " + label.padded(to: max(labelWidth, label.count + 1))
        var first = true
        for item in items {
            let separator = first ? "" : (item.hasPrefix("(") ? "   " : ", ")
            if !first && line.count + separator.count + item.count > width {
                lines.append(line + (item.hasPrefix("(") ? "" : ","))
                line = indent + item
            } else {
                line += separator + item
            }
            first = false
        }
        lines.append(line)
        return lines
    }

    /// The token as a query value: unreserved characters kept, everything else %-escaped.
    static func queryEscaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~".contains(c)) { out.append(c) } else { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
        }
        return out
    }

    private static func url(_ host: String, _ port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
