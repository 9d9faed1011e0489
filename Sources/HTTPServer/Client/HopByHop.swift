/// Hop-by-hop fields (RFC 9110 §7.6.1): they describe one connection, so a proxy removes them
/// from what it forwards, both ways, with every field its `Connection` field names. The framing
/// fields go too: the client and the server frame each message themselves.
package enum HopByHop {
    static let names: Set<String> = ["connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade",
                                     "proxy-authenticate", "proxy-authorization", "trailer", "content-length"]

    /// `headers` without hop-by-hop fields, the framing fields and those named by `Connection`.
    package static func endToEnd(_ headers: HTTPHeaders) -> HTTPHeaders {
        var named: Set<String> = []
        for value in headers.values("Connection") {
            for token in value.split(separator: ",") { named.insert(token.trimmingASCIISpaces().lowercased()) }
        }
        var kept = HTTPHeaders()
        kept.reserveCapacity(headers.count)
        for field in headers {
            let lower = field.name.lowercased()
            if names.contains(lower) || named.contains(lower) { continue }
            kept.add(field.name, field.value)
        }
        return kept
    }
}
