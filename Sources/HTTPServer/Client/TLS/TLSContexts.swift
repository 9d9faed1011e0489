#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// An outbound client's OpenSSL contexts, one verifying certificates and one trusting any (made when
/// first needed, on the client's loop thread): OpenSSL is loaded by the first https upstream.
final class TLSContexts {
    private let settings: OutboundSettings
    private var lib: OpenSSL?
    private var contexts: [Bool: OpaquePointer] = [:]

    init(settings: OutboundSettings) { self.settings = settings }

    deinit { close() }

    /// Frees the contexts, then this thread's OpenSSL state: on the loop's thread as it stops, so
    /// nothing of OpenSSL's is left to its thread-exit handler, which may not have run when the
    /// process exits (LeakSanitizer reports what it still holds then). Used again, it starts over.
    func close() {
        guard let lib else { return }
        for ctx in contexts.values { lib.SSL_CTX_free(ctx) }
        contexts = [:]
        lib.OPENSSL_thread_stop()
    }

    /// A TLS session for the connected socket `fd` to `upstream`, with SNI and the host-name check
    /// when `verify`; or why there is none (OpenSSL missing, a CA file it cannot read).
    func session(fd: Int32, upstream: Upstream, verify: Bool) -> Result<TLSSession, TLSUnavailable> {
        let lib: OpenSSL
        if let known = self.lib {
            lib = known
        } else {
            switch OpenSSL.load(settings.tlsLibrary) {
            case .failure(let why): return .failure(why)
            case .success(let loaded): lib = loaded
            }
            self.lib = lib
            TLSContexts.blockSIGPIPE()
        }
        let ctx: OpaquePointer
        if let known = contexts[verify] {
            ctx = known
        } else {
            switch makeContext(lib, verify: verify) {
            case .failure(let why): return .failure(why)
            case .success(let made): ctx = made
            }
            contexts[verify] = ctx
        }
        lib.ERR_clear_error()
        guard let ssl = lib.SSL_new(ctx) else { return .failure(TLSUnavailable(reason: "SSL_new failed: \(lib.errorText())")) }
        // The session frees `ssl` from here on, whatever fails below.
        let session = TLSSession(lib: lib, ssl: ssl, host: upstream.host)
        guard lib.SSL_set_fd(ssl, fd) == 1 else { return .failure(TLSUnavailable(reason: "SSL_set_fd failed: \(lib.errorText())")) }
        // A bracketed IPv6 literal is checked without its brackets; an address gets no SNI (RFC 6066 §3).
        let name = upstream.bareHost
        if !upstream.hostIsAddress {
            let ok = name.withCString { lib.SSL_ctrl(ssl, OpenSSL.SSL_CTRL_SET_TLSEXT_HOSTNAME, OpenSSL.TLSEXT_NAMETYPE_host_name, UnsafeMutableRawPointer(mutating: $0)) }
            guard ok == 1 else { return .failure(TLSUnavailable(reason: "cannot set the TLS server name \(name): \(lib.errorText())")) }
        }
        // OpenSSL 3's SSL_set1_host takes an IP address literal as well as a DNS name.
        if verify, name.withCString({ lib.SSL_set1_host(ssl, $0) }) != 1 {
            return .failure(TLSUnavailable(reason: "cannot check the certificate for \(name): \(lib.errorText())"))
        }
        return .success(session)
    }

    /// OpenSSL writes to the socket with write(2), not send(2) with MSG_NOSIGNAL: an upstream that
    /// reset the connection would raise SIGPIPE and end the process. Blocked on this loop thread
    /// (the only one that uses this client's sockets), the write fails with EPIPE instead.
    private static func blockSIGPIPE() {
        #if canImport(Glibc)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        #endif
    }

    private func makeContext(_ lib: OpenSSL, verify: Bool) -> Result<OpaquePointer, TLSUnavailable> {
        lib.ERR_clear_error()
        guard let ctx = lib.SSL_CTX_new(lib.TLS_client_method()) else { return .failure(TLSUnavailable(reason: "SSL_CTX_new failed: \(lib.errorText())")) }
        _ = lib.SSL_CTX_ctrl(ctx, OpenSSL.SSL_CTRL_MODE, OpenSSL.writeModes, nil)
        _ = lib.SSL_CTX_set_options(ctx, OpenSSL.SSL_OP_IGNORE_UNEXPECTED_EOF)
        if verify {
            lib.SSL_CTX_set_verify(ctx, OpenSSL.SSL_VERIFY_PEER, nil)
            if lib.SSL_CTX_set_default_verify_paths(ctx) != 1 {
                let why = lib.errorText()
                lib.SSL_CTX_free(ctx)
                return .failure(TLSUnavailable(reason: "cannot read the system's trusted certificates: \(why)"))
            }
            if let file = settings.caFile?.path, file.withCString({ lib.SSL_CTX_load_verify_locations(ctx, $0, nil) }) != 1 {
                let why = lib.errorText()
                lib.SSL_CTX_free(ctx)
                return .failure(TLSUnavailable(reason: "--proxy-ca-file \(file) cannot be read as PEM certificates: \(why)"))
            }
        } else {
            lib.SSL_CTX_set_verify(ctx, OpenSSL.SSL_VERIFY_NONE, nil)
        }
        return .success(ctx)
    }
}
