/// Hop-by-hop fields (RFC 9110 §7.6.1): they describe one connection, so a proxy removes them
/// from what it forwards, both ways, with every field its `Connection` field names. The framing
/// fields go too: the client and the server frame each message themselves.
package enum HopByHop {
    static let names: Set<String> = ["connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade",
                                     "proxy-authenticate", "proxy-authorization", "trailer", "content-length"]

    /// `headers` without hop-by-hop fields, the framing fields and those named by `Connection`.
    /// `answersHead`: the answer to a HEAD keeps its `Content-Length`, which frames nothing there
    /// but says what a GET's body would count (RFC 9110 §9.3.2); the encoder writes it as the
    /// head's one length.
    package static func endToEnd(_ headers: HTTPHeaders, answersHead: Bool = false) -> HTTPHeaders {
        var named: Set<String> = []
        for value in headers.values("Connection") {
            for token in value.split(separator: ",") { named.insert(token.trimmingASCIISpaces().lowercased()) }
        }
        var kept = HTTPHeaders()
        kept.reserveCapacity(headers.count)
        for field in headers {
            let lower = field.name.lowercased()
            let lengthOfHead = answersHead && lower == "content-length"
            if (names.contains(lower) && !lengthOfHead) || named.contains(lower) { continue }
            kept.add(field.name, field.value)
        }
        return kept
    }
}
