#if canImport(Darwin)
import Foundation

/// https upstreams on Darwin: `URLSession`, part of Foundation there (nothing new linked), which
/// verifies certificates against the system's trust store and the host name. There is no OpenSSL
/// to load on a Mac, so this is the second client the plain-HTTP one stands beside. The trust
/// settings are applied in its server-trust challenge (`SystemServerTrust`): type-checked by the
/// Darwin view, not yet run on a Mac.
///
/// Answers arrive on URLSession's own queue: they go into `inbox` with the exchange's token, and
/// the loop's poller is woken to hand them on from the loop's thread (`OutboundClient.tick`).
/// Redirects are passed back, never followed; nothing is cached and no cookie is kept.
/// URLSession decodes a compressed body itself, so the answer loses its `Content-Encoding`.
final class SystemHTTPS: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    /// Answers waiting for the loop, by the token `send` was given.
    let inbox = Locked<[(token: Int, result: OutboundResult)]>([])
    private let settings: OutboundSettings
    private let wake: @Sendable () -> Void
    private let sessionBox = Locked<URLSession?>(nil)
    private let trust: SystemServerTrust
    /// Why a certificate was refused, by the token of the task it was refused for: a refused
    /// challenge ends the task as cancelled, and the answer's hint says why instead.
    private let refusals = Locked<[String: String]>([:])

    /// `wake` must be safe from any thread (a poller's `wake()` is).
    init(settings: OutboundSettings, wake: @escaping @Sendable () -> Void) {
        self.settings = settings
        self.wake = wake
        trust = SystemServerTrust(settings: settings)
    }

    /// The session, made at the first https upstream.
    private var session: URLSession {
        sessionBox.withLock { box in
            if let made = box { return made }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
            configuration.timeoutIntervalForRequest = settings.readTimeout
            configuration.timeoutIntervalForResource = settings.connectTimeout + settings.readTimeout
            configuration.httpMaximumConnectionsPerHost = max(1, settings.maxIdlePerUpstream)
            let made = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
            box = made
            return made
        }
    }

    /// Sends `request`; its answer, or why there is none, goes into `inbox` under `token`.
    func send(_ request: OutboundRequest, token: Int) {
        let upstream = request.upstream
        let authority = upstream.port == 443 ? upstream.host : "\(upstream.host):\(upstream.port)"
        guard let url = URL(string: "https://" + authority + request.target) else {
            return deliver(token, .failure(OutboundFailure(.malformed, "https://\(authority)\(request.target) is not a URL URLSession takes")))
        }
        var outbound = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: settings.readTimeout)
        outbound.httpMethod = request.method
        for field in request.headers.fields { outbound.addValue(field.value, forHTTPHeaderField: field.name) }
        // URLSession may keep its own Host (it sets it from the URL); --preserve-host-header asks for the client's.
        if let host = request.host { outbound.setValue(host, forHTTPHeaderField: "Host") }
        if !request.body.isEmpty { outbound.httpBody = Data(request.body) }
        let maxBody = settings.maxBodyBytes
        let key = String(token)
        let task = session.dataTask(with: outbound) { [self] data, response, error in
            if let refusal = refusals.withLock({ $0.removeValue(forKey: key) }) {
                return deliver(token, .failure(OutboundFailure(.tls, refusal)))
            }
            if let error { return deliver(token, .failure(SystemHTTPS.failure(error))) }
            guard let http = response as? HTTPURLResponse else {
                return deliver(token, .failure(OutboundFailure(.malformed, "the upstream's answer is not HTTP")))
            }
            let body = data ?? Data()
            guard body.count <= maxBody else {
                return deliver(token, .failure(OutboundFailure(.malformed, "the upstream's answer body is larger than \(maxBody) bytes")))
            }
            var headers = HTTPHeaders()
            for (key, value) in http.allHeaderFields {
                guard let name = key as? String else { continue }
                headers.add(name, "\(value)")
            }
            // Framing is the server's own; the body arrives decoded, so its coding goes too.
            headers = HopByHop.endToEnd(headers, answersHead: request.method == "HEAD")
            headers.remove("Content-Encoding")
            deliver(token, .success(OutboundResponse(status: http.statusCode, reason: "", headers: headers, body: [UInt8](body))))
        }
        // The challenge sees the task, not the token: the description carries it there.
        task.taskDescription = key
        task.resume()
    }

    /// Stops the session: tasks still running end with a cancellation.
    func invalidate() {
        sessionBox.withLock { box in
            box?.invalidateAndCancel()
            box = nil
        }
    }

    private func deliver(_ token: Int, _ result: OutboundResult) {
        inbox.withLock { $0.append((token, result)) }
        wake()
    }

    private static func failure(_ error: any Error) -> OutboundFailure {
        guard let url = error as? URLError else { return OutboundFailure(.reset, "\(error)") }
        switch url.code {
        case .timedOut: return OutboundFailure(.timedOut, "no complete answer in time (URLSession)")
        case .cannotFindHost, .dnsLookupFailed: return OutboundFailure(.unresolved, url.localizedDescription)
        case .cannotConnectToHost, .notConnectedToInternet: return OutboundFailure(.refused, url.localizedDescription)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            return OutboundFailure(.tls, url.localizedDescription)
        default: return OutboundFailure(.reset, url.localizedDescription)
        }
    }

    // MARK: URLSessionTaskDelegate

    /// A redirect is an answer like any other: passed back, never followed.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// The server's certificate, judged by the trust settings (`SystemServerTrust`); a refusal is
    /// kept for the task's answer. Other challenges get URLSession's default handling. The server
    /// trust is a session-level challenge: with no session-level method, URLSession asks this one,
    /// which also names the task.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let answer = trust.answer(challenge)
        if let refusal = answer.refusal, let key = task.taskDescription {
            refusals.withLock { $0[key] = refusal }
        }
        completionHandler(answer.disposition, answer.credential)
    }
}
#endif
