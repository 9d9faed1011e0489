#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One TLS connection over a non-blocking socket: each call does what it can now and says which
/// readiness it waits for (`SSL_ERROR_WANT_READ` / `WANT_WRITE`), so the event loop drives it.
final class TLSSession {
    enum Step: Equatable {
        /// The handshake finished, or this many bytes were read or written (0 read: the upstream closed).
        case done(Int)
        case wantRead
        case wantWrite
        case failed(String)
    }

    private let lib: OpenSSL
    private let ssl: OpaquePointer
    private let host: String

    init(lib: OpenSSL, ssl: OpaquePointer, host: String) {
        self.lib = lib
        self.ssl = ssl
        self.host = host
    }

    deinit {
        // close_notify if the socket takes it now; nobody waits for the upstream's.
        lib.ERR_clear_error()
        _ = lib.SSL_shutdown(ssl)
        lib.SSL_free(ssl)
        lib.ERR_clear_error()
    }

    func handshake() -> Step {
        lib.ERR_clear_error()
        let r = lib.SSL_connect(ssl)
        if r == 1 { return .done(0) }
        return step(r, during: "handshake")
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Step {
        lib.ERR_clear_error()
        let r = lib.SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        if r > 0 { return .done(Int(r)) }
        return step(r, during: "read")
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Step {
        guard !bytes.isEmpty else { return .done(0) }
        lib.ERR_clear_error()
        let r = lib.SSL_write(ssl, bytes.baseAddress, Int32(clamping: bytes.count))
        if r > 0 { return .done(Int(r)) }
        return step(r, during: "write")
    }

    private func step(_ r: Int32, during what: String) -> Step {
        let e = errno
        switch lib.SSL_get_error(ssl, r) {
        case OpenSSL.SSL_ERROR_WANT_READ: return .wantRead
        case OpenSSL.SSL_ERROR_WANT_WRITE: return .wantWrite
        case OpenSSL.SSL_ERROR_ZERO_RETURN: return .done(0)
        case OpenSSL.SSL_ERROR_SYSCALL:
            let text = lib.errorText()
            if !text.isEmpty { return .failed("TLS \(what) with \(host) failed: \(text)") }
            if e != 0 && r < 0 { return .failed("TLS \(what) with \(host) failed: \(Sys.errorText(e))") }
            // End of file with no close_notify: the read ends (SSL_OP_IGNORE_UNEXPECTED_EOF makes
            // this rare); a handshake cut short is a failure.
            return what == "read" ? .done(0) : .failed("TLS \(what) with \(host) failed: the upstream closed the connection")
        default:
            var text = lib.errorText()
            if text.isEmpty { text = "an OpenSSL error" }
            let verify = lib.SSL_get_verify_result(ssl)
            if what == "handshake", verify != 0, let reason = lib.X509_verify_cert_error_string(verify) {
                text += " (\(String(cString: reason)))"
            }
            return .failed("TLS \(what) with \(host) failed: \(text)")
        }
    }
}
