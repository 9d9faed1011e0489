/// Why the server could not start.
package enum ServerError: Error, CustomStringConvertible, Sendable {
    case addressInUse(host: String, port: Int)
    case cannotResolve(host: String)
    case system(call: String, errno: Int32)
    /// `--poller` named a mechanism this operating system does not have.
    case pollerUnavailable(PollerKind)

    package var description: String {
        switch self {
        case .addressInUse(let host, let port):
            return "\(host):\(port) is already in use (is another mock-server running? pick another with --port, or --port 0 for a free one)"
        case .cannotResolve(let host):
            return "cannot resolve host \"\(host)\""
        case .system(let call, let code):
            return "\(call) failed: \(Sys.errorText(code))"
        case .pollerUnavailable(let kind):
            let usable = PollerKind.allCases.filter(\.isAvailable).map(\.rawValue).joined(separator: " or ")
            return "this system has no \(kind.rawValue); use --poller \(usable)"
        }
    }
}
