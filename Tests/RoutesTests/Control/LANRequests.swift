import HTTPServer
import MockTestSupport

extension TestServer {
    /// The server's address as a device on the LAN would write it in `Host`.
    static let lanHost = "192.168.1.23:8080"

    /// The answer to a request as if from a machine on the LAN: `Host` names the server's LAN
    /// address unless `headers` give one, and the peer is `address`.
    func respondFromLAN(_ method: HTTPMethod, _ target: String, _ headers: HTTPHeaders = [:],
                        from address: String = "10.0.0.7") -> HTTPResponse {
        var all = headers
        if !all.contains("Host") { all.add("Host", TestServer.lanHost) }
        return responder.respond(to: HTTPRequest(method: method, target: target, headers: all), context: RequestContext(remoteAddress: address))
    }
}
