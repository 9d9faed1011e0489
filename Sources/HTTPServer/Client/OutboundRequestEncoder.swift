/// Writes an outbound request's head and body: the request line, `Host`, the end-to-end fields,
/// `Content-Length` when there is a body (or the method usually has one), then the body.
enum OutboundRequestEncoder {
    static func encode(_ request: OutboundRequest) -> [UInt8] {
        var head = "\(request.method) \(request.target) HTTP/1.1\r\nHost: \(request.host ?? request.upstream.hostField)\r\n"
        for field in request.headers { head += "\(field.name): \(field.value)\r\n" }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        bytes.append(contentsOf: request.body)
        return bytes
    }
}
