import HTTPServer

/// The names API.md §6.1 gives the systems, and which one owns a path before any handler runs
/// (faults match on it before the request is answered).
public enum SystemNames {
    /// Every emulated system's name, in the order of the document.
    public static let all = ["rows", "gateway", "skyzone", "musbooking", "rsschool"]

    /// The system a path belongs to: `admin` for `/__mock/…`, nil for a path no system claims.
    public static func owner(ofPath path: String) -> String? {
        // On the path's bytes: this runs on every request, where String comparisons cost ~2k instructions.
        var path = path
        return path.withUTF8 { p -> String? in
            func has(_ prefix: StaticString) -> Bool {
                let q = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                guard p.count >= q.count else { return false }
                for i in 0..<q.count {
                    let a = p[i], b = q[i]
                    guard a == b || (a >= 65 && a <= 90 && a + 32 == b) else { return false }
                }
                return true
            }
            func equals(_ text: StaticString) -> Bool {
                guard p.count == text.utf8CodeUnitCount else { return false }
                for i in 0..<p.count where p[i] != text.utf8Start[i] { return false }
                return true
            }
            if has("/__mock/") || equals("/__mock") { return "admin" }
            if has("/api/") { return "musbooking" }
            if has("/rows/") || equals("/auth/login") || equals("/auth/login/") { return "rows" }
            if has("/rsschool/") { return "rsschool" }
            if has("/customer-gateway/") { return "gateway" }
            if equals("/customer") || has("/customer/") || equals("/tokens") || has("/tokens/") { return "skyzone" }
            return nil
        }
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
