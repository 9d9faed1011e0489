import HTTPServer

/// The names API.md §6.1 gives the systems, and which one owns a path before any handler runs
/// (faults match on it before the request is answered).
public enum SystemNames {
    /// Every emulated system's name, in the order of the document.
    public static let all = ["rows", "gateway", "skyzone", "musbooking", "rsschool"]

    /// The system a path belongs to: `admin` for `/__mock/…`, nil for a path no system claims.
    public static func owner(ofPath path: String) -> String? { Owner(path: path).name }

    /// Who owns a path, as the middleware tests it on every request (no string compared or retained).
    enum Owner {
        case none, admin, rows, gateway, skyzone, musbooking, rsschool

        var name: String? {
            switch self {
            case .none: return nil
            case .admin: return "admin"
            case .rows: return "rows"
            case .gateway: return "gateway"
            case .skyzone: return "skyzone"
            case .musbooking: return "musbooking"
            case .rsschool: return "rsschool"
            }
        }

        init(path: String) {
            // On the path's bytes: String comparisons here cost ~2k instructions per request.
            self = path.utf8.withContiguousStorageIfAvailable(Owner.of) ?? Array(path.utf8).withUnsafeBufferPointer(Owner.of)
        }

        private static func of(_ p: UnsafeBufferPointer<UInt8>) -> Owner {
            /// `prefix` starts the path, letters in any case (the prefixes are lower case).
            func has(_ prefix: StaticString) -> Bool {
                let n = prefix.utf8CodeUnitCount
                guard p.count >= n else { return false }
                let q = prefix.utf8Start
                for i in 0..<n {
                    let a = p[i], b = q[i]
                    guard a == b || (a >= 65 && a <= 90 && a + 32 == b) else { return false }
                }
                return true
            }
            /// The path is exactly `text`.
            func equals(_ text: StaticString) -> Bool {
                let n = text.utf8CodeUnitCount
                guard p.count == n else { return false }
                let q = text.utf8Start
                for i in 0..<n where p[i] != q[i] { return false }
                return true
            }
            // Every prefix starts with "/" and a letter or "_": look only at the candidates of that letter.
            guard p.count >= 2, p[0] == UInt8(ascii: "/") else { return .none }
            switch p[1] == UInt8(ascii: "_") ? p[1] : p[1] | 0x20 {
            case UInt8(ascii: "_"):
                if has("/__mock/") || equals("/__mock") { return .admin }
            case UInt8(ascii: "a"):
                if has("/api/") { return .musbooking }
                if equals("/auth/login") || equals("/auth/login/") { return .rows }
            case UInt8(ascii: "r"):
                if has("/rows/") { return .rows }
                if has("/rsschool/") { return .rsschool }
            case UInt8(ascii: "c"):
                if has("/customer-gateway/") { return .gateway }
                if equals("/customer") || has("/customer/") { return .skyzone }
            case UInt8(ascii: "t"):
                if equals("/tokens") || has("/tokens/") { return .skyzone }
            default: break
            }
            return .none
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
