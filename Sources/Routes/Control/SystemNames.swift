import HTTPServer

/// The names API.md §6.1 gives the systems, and which one owns a path before any handler runs
/// (faults match on it before the request is answered).
public enum SystemNames {
    /// Every emulated system's name, in the order of the document.
    public static let all = ["rows", "gateway", "skyzone", "musbooking", "rsschool"]

    /// The system a path belongs to: `admin` for `/__mock/…`, nil for a path no system claims.
    public static func owner(ofPath path: String) -> String? {
        let p = path.utf8
        func has(_ prefix: String) -> Bool {
            let q = prefix.utf8
            return p.count >= q.count && zip(p, q).allSatisfy { a, b in a == b || (a >= 65 && a <= 90 && a + 32 == b) }
        }
        if has("/__mock/") || path == "/__mock" { return "admin" }
        if has("/api/") { return "musbooking" }
        if has("/rows/") || path == "/auth/login" || path == "/auth/login/" { return "rows" }
        if has("/rsschool/") { return "rsschool" }
        if has("/customer-gateway/") { return "gateway" }
        if path == "/customer" || has("/customer/") || path == "/tokens" || has("/tokens/") { return "skyzone" }
        return nil
    }

    /// The name of an emulated system.
    public static func name(of system: any EmulatedSystem) -> String {
        switch system {
        case is RowsApp: return "rows"
        case is CustomerGateway: return "gateway"
        case is SkyZone: return "skyzone"
        case is Musbooking: return "musbooking"
        case is RSSchool: return "rsschool"
        default: return String(describing: type(of: system)).lowercased()
        }
    }
}
