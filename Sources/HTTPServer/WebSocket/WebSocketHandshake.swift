/// The server side of the RFC 6455 §4.2 opening handshake.
package enum WebSocketHandshake {
    /// The fixed GUID appended to the client's key before hashing (RFC 6455 §1.3).
    package static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// True when the request asks for a WebSocket upgrade: `Upgrade` lists token `websocket`
    /// (any case) and `Connection` lists `upgrade` (any case).
    package static func isUpgradeRequest(_ request: HTTPRequest) -> Bool {
        request.headers.hasToken("websocket", in: "Upgrade") && request.headers.hasToken("upgrade", in: "Connection")
    }

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: Base64(SHA-1(key + GUID)).
    package static func acceptKey(for key: String) -> String {
        Base64.encode(SHA1.hash((key + guid).utf8))
    }

    /// For an upgrade request on a WebSocket route: the 101 response (accepted) or an error
    /// response (405 not GET, 400 HTTP/1.0 or bad key, 426 unsupported version).
    package static func response(for request: HTTPRequest) -> (response: HTTPResponse, accepted: Bool) {
        guard request.method == .get else {
            var response = HTTPResponse.text(.methodNotAllowed, "WebSocket upgrade requires GET\n")
            response.headers.set("Allow", "GET")
            return (response, false)
        }
        guard request.version.major == 1, request.version.minor >= 1 else {
            return (.text(.badRequest, "WebSocket upgrade requires HTTP/1.1\n"), false)
        }
        let versions = request.headers.values("Sec-WebSocket-Version")
        guard versions.count == 1, versions[0].trimmingASCIISpaces() == "13" else {
            var response = HTTPResponse.text(.upgradeRequired, "Unsupported Sec-WebSocket-Version (13 required)\n")
            response.headers.set("Sec-WebSocket-Version", "13")
            return (response, false)
        }
        // Exactly one key, which must be the Base64 of 16 bytes (§4.2.1 item 5).
        let keys = request.headers.values("Sec-WebSocket-Key")
        let key = keys.count == 1 ? String(keys[0].trimmingASCIISpaces()) : ""
        guard Base64.decode(key)?.count == 16 else {
            return (.text(.badRequest, "Missing or invalid Sec-WebSocket-Key\n"), false)
        }
        // No subprotocol is echoed and no extension (permessage-deflate) is accepted.
        let headers: HTTPHeaders = [
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Accept": acceptKey(for: key),
        ]
        return (HTTPResponse(status: .switchingProtocols, headers: headers), true)
    }
}
