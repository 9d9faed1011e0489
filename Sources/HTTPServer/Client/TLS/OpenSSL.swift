#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The system's OpenSSL 3, loaded at run time (`dlopen`) the first time an https upstream is used:
/// nothing of it is linked into the executable, so a machine without it runs everything but https.
/// Only the functions the client calls are looked up, each as a typed C function pointer.
struct OpenSSL: @unchecked Sendable {
    typealias Method = @convention(c) () -> OpaquePointer?
    typealias CtxNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias CtxInt = @convention(c) (OpaquePointer?) -> Int32
    typealias CtxSetVerify = @convention(c) (OpaquePointer?, Int32, OpaquePointer?) -> Void
    typealias CtxLoadVerify = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    typealias CtxCtrl = @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    typealias CtxSetOptions = @convention(c) (OpaquePointer?, UInt64) -> UInt64
    typealias CtxFree = @convention(c) (OpaquePointer?) -> Void
    typealias SSLNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias SSLSetFd = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias SSLCtrl = @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    typealias SSLSetHost = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias SSLInt = @convention(c) (OpaquePointer?) -> Int32
    typealias SSLIO = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    typealias SSLWrite = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32
    typealias SSLGetError = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias SSLFree = @convention(c) (OpaquePointer?) -> Void
    typealias SSLVerifyResult = @convention(c) (OpaquePointer?) -> Int
    typealias ErrGet = @convention(c) () -> UInt
    typealias ErrClear = @convention(c) () -> Void
    typealias ErrString = @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    typealias VerifyText = @convention(c) (Int) -> UnsafePointer<CChar>?

    let TLS_client_method: Method
    let SSL_CTX_new: CtxNew
    let SSL_CTX_set_default_verify_paths: CtxInt
    let SSL_CTX_load_verify_locations: CtxLoadVerify
    let SSL_CTX_set_verify: CtxSetVerify
    let SSL_CTX_ctrl: CtxCtrl
    let SSL_CTX_set_options: CtxSetOptions
    let SSL_CTX_free: CtxFree
    let SSL_new: SSLNew
    let SSL_set_fd: SSLSetFd
    let SSL_ctrl: SSLCtrl
    let SSL_set1_host: SSLSetHost
    let SSL_connect: SSLInt
    let SSL_read: SSLIO
    let SSL_write: SSLWrite
    let SSL_get_error: SSLGetError
    let SSL_shutdown: SSLInt
    let SSL_free: SSLFree
    let SSL_get_verify_result: SSLVerifyResult
    let ERR_get_error: ErrGet
    let ERR_clear_error: ErrClear
    let ERR_error_string_n: ErrString
    let X509_verify_cert_error_string: VerifyText
    /// Frees this thread's OpenSSL state (its error queue and caches), which is otherwise freed by
    /// a thread-exit handler that may not have run when the process exits.
    let OPENSSL_thread_stop: ErrClear

    // The constants of the macros over SSL_ctrl / SSL_CTX_ctrl (openssl/ssl.h, 3.x).
    static let SSL_VERIFY_NONE: Int32 = 0
    static let SSL_VERIFY_PEER: Int32 = 1
    static let SSL_CTRL_MODE: Int32 = 33
    static let SSL_CTRL_SET_TLSEXT_HOSTNAME: Int32 = 55
    static let TLSEXT_NAMETYPE_host_name = 0
    /// SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER: SSL_write may take
    /// part of a buffer, as send(2) does, and the rest is retried from wherever it is then.
    static let writeModes = 0x1 | 0x2
    /// SSL_OP_IGNORE_UNEXPECTED_EOF: an upstream that closes without close_notify ends a
    /// close-delimited answer (the HTTP parser still refuses a short Content-Length one).
    static let SSL_OP_IGNORE_UNEXPECTED_EOF: UInt64 = 1 << 7
    static let SSL_ERROR_SSL: Int32 = 1
    static let SSL_ERROR_WANT_READ: Int32 = 2
    static let SSL_ERROR_WANT_WRITE: Int32 = 3
    static let SSL_ERROR_SYSCALL: Int32 = 5
    static let SSL_ERROR_ZERO_RETURN: Int32 = 6

    /// The library loaded under `name` (`libssl.so.3` unless a test names another), or why not.
    /// Loaded once per name: later calls answer from the cache.
    static func load(_ name: String) -> Result<OpenSSL, TLSUnavailable> {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let known = cache[name] { return known }
        let result = open(name)
        cache[name] = result
        return result
    }

    private static let cacheLock = Condition()
    nonisolated(unsafe) private static var cache: [String: Result<OpenSSL, TLSUnavailable>] = [:]

    private static func open(_ name: String) -> Result<OpenSSL, TLSUnavailable> {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(TLSUnavailable(reason: "https needs OpenSSL 3, and \(name) cannot be loaded (\(why)); install it (Debian/Ubuntu: apt-get install libssl3)"))
        }
        do throws(TLSUnavailable) {
            return .success(try OpenSSL(handle: handle, name: name))
        } catch {
            return .failure(error)
        }
    }

    private init(handle: UnsafeMutableRawPointer, name: String) throws(TLSUnavailable) {
        // dlsym on libssl's handle also finds libcrypto's functions: dlopen loaded it as a dependency.
        func symbol<T>(_ symbolName: String, _: T.Type) throws(TLSUnavailable) -> T {
            guard let p = dlsym(handle, symbolName) else {
                throw TLSUnavailable(reason: "\(name) is not OpenSSL 3: it lacks \(symbolName); install OpenSSL 3 (Debian/Ubuntu: apt-get install libssl3)")
            }
            return unsafeBitCast(p, to: T.self)
        }
        TLS_client_method = try symbol("TLS_client_method", Method.self)
        SSL_CTX_new = try symbol("SSL_CTX_new", CtxNew.self)
        SSL_CTX_set_default_verify_paths = try symbol("SSL_CTX_set_default_verify_paths", CtxInt.self)
        SSL_CTX_load_verify_locations = try symbol("SSL_CTX_load_verify_locations", CtxLoadVerify.self)
        SSL_CTX_set_verify = try symbol("SSL_CTX_set_verify", CtxSetVerify.self)
        SSL_CTX_ctrl = try symbol("SSL_CTX_ctrl", CtxCtrl.self)
        SSL_CTX_set_options = try symbol("SSL_CTX_set_options", CtxSetOptions.self)
        SSL_CTX_free = try symbol("SSL_CTX_free", CtxFree.self)
        SSL_new = try symbol("SSL_new", SSLNew.self)
        SSL_set_fd = try symbol("SSL_set_fd", SSLSetFd.self)
        SSL_ctrl = try symbol("SSL_ctrl", SSLCtrl.self)
        SSL_set1_host = try symbol("SSL_set1_host", SSLSetHost.self)
        SSL_connect = try symbol("SSL_connect", SSLInt.self)
        SSL_read = try symbol("SSL_read", SSLIO.self)
        SSL_write = try symbol("SSL_write", SSLWrite.self)
        SSL_get_error = try symbol("SSL_get_error", SSLGetError.self)
        SSL_shutdown = try symbol("SSL_shutdown", SSLInt.self)
        SSL_free = try symbol("SSL_free", SSLFree.self)
        SSL_get_verify_result = try symbol("SSL_get_verify_result", SSLVerifyResult.self)
        ERR_get_error = try symbol("ERR_get_error", ErrGet.self)
        ERR_clear_error = try symbol("ERR_clear_error", ErrClear.self)
        ERR_error_string_n = try symbol("ERR_error_string_n", ErrString.self)
        X509_verify_cert_error_string = try symbol("X509_verify_cert_error_string", VerifyText.self)
        OPENSSL_thread_stop = try symbol("OPENSSL_thread_stop", ErrClear.self)
    }

    /// The oldest error of this thread's OpenSSL queue as text ("" when none), and the queue emptied.
    func errorText() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why https upstreams cannot be reached: the library is missing (or not OpenSSL 3).
struct TLSUnavailable: Error, Sendable {
    let reason: String
}
