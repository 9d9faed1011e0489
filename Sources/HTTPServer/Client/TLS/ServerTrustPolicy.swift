/// How an https upstream's certificate is judged: the one reading of `--trust-all-proxy-targets`,
/// `--trust-proxy-target` and `--proxy-ca-file` that both clients follow (OpenSSL on Linux,
/// URLSession on Darwin). Trusting a host wins over the CA file, as it turns verification off.
package enum ServerTrustPolicy: Sendable, Equatable {
    /// Accepted without any verification; `flag` names the setting that says so, for the log.
    case unverified(flag: String)
    /// Verified against the system's roots plus the CA file's certificates, host name included.
    case systemAndCAFile(ProxyCAFile)
    /// Verified against the system's roots, host name included.
    case system
}

extension OutboundSettings {
    /// The policy for `host` as the URL writes it (lowercased; an IPv6 literal in brackets).
    package func trustPolicy(forHost host: String) -> ServerTrustPolicy {
        if trustAllTargets { return .unverified(flag: "--trust-all-proxy-targets") }
        if trustedTargets.contains(host) { return .unverified(flag: "--trust-proxy-target \(host)") }
        if let caFile { return .systemAndCAFile(caFile) }
        return .system
    }

    /// The policy for the host a TLS challenge names (URLSession's `URLProtectionSpace.host`),
    /// which may write an IPv6 literal without brackets and in capitals.
    package func trustPolicy(forChallengeHost host: String) -> ServerTrustPolicy {
        let lowered = host.lowercased()
        let asURLWritesIt = lowered.contains(":") && !lowered.hasPrefix("[") ? "[" + lowered + "]" : lowered
        return trustPolicy(forHost: asURLWritesIt)
    }
}
