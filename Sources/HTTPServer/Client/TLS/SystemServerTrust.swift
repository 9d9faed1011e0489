#if canImport(Darwin)
import Foundation
import Security

/// The answer to URLSession's server-trust challenge, from the trust settings
/// (`ServerTrustPolicy`): what `--trust-all-proxy-targets`, `--trust-proxy-target` and
/// `--proxy-ca-file` mean on Linux, where OpenSSL applies them. Immutable, so any of
/// URLSession's threads may ask it. Type-checked by the Darwin view, not yet run on a Mac.
struct SystemServerTrust: Sendable {
    /// What to tell URLSession, and why a certificate was refused (for the 502's hint).
    struct Answer {
        let disposition: URLSession.AuthChallengeDisposition
        let credential: URLCredential?
        let refusal: String?
    }

    let settings: OutboundSettings

    /// The answer to `challenge`; any challenge but the server's trust gets the default handling.
    func answer(_ challenge: URLAuthenticationChallenge) -> Answer {
        let space = challenge.protectionSpace
        guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let trust = space.serverTrust else {
            return Answer(disposition: .performDefaultHandling, credential: nil, refusal: nil)
        }
        switch settings.trustPolicy(forChallengeHost: space.host) {
        case .unverified:
            // As SSL_VERIFY_NONE on Linux: the certificate is taken as it is (the client logs it once).
            return Answer(disposition: .useCredential, credential: URLCredential(trust: trust), refusal: nil)
        case .system:
            return Answer(disposition: .performDefaultHandling, credential: nil, refusal: nil)
        case .systemAndCAFile(let file):
            if let why = SystemServerTrust.refusal(trust, adding: file) {
                return Answer(disposition: .cancelAuthenticationChallenge, credential: nil,
                              refusal: "the certificate of \(space.host) is trusted neither by the system nor by --proxy-ca-file \(file.path): \(why)")
            }
            return Answer(disposition: .useCredential, credential: URLCredential(trust: trust), refusal: nil)
        }
    }

    /// Evaluates `trust` with the file's certificates as anchors besides the system's (what
    /// SSL_CTX_load_verify_locations does to OpenSSL's default store); nil when it is trusted.
    /// The trust URLSession hands over already carries the SSL policy with the host name, so the
    /// name is checked too.
    private static func refusal(_ trust: SecTrust, adding file: ProxyCAFile) -> String? {
        let anchors = file.certificates.compactMap(certificate)
        // Without SetAnchorCertificatesOnly(false), setting anchors would drop the system's (SecTrust.h).
        let set = SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        guard set == errSecSuccess else { return "SecTrustSetAnchorCertificates failed (OSStatus \(set))" }
        let only = SecTrustSetAnchorCertificatesOnly(trust, false)
        guard only == errSecSuccess else { return "SecTrustSetAnchorCertificatesOnly failed (OSStatus \(only))" }
        var error: CFError?
        if SecTrustEvaluateWithError(trust, &error) { return nil }
        return error.map { ($0 as Error).localizedDescription } ?? "SecTrustEvaluateWithError refused it"
    }

    /// True when the Security framework reads `der` as a certificate (checked once, at start).
    static func isCertificate(_ der: [UInt8]) -> Bool { certificate(der) != nil }

    private static func certificate(_ der: [UInt8]) -> SecCertificate? {
        SecCertificateCreateWithData(nil, Data(der) as CFData)
    }
}
#endif
