#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// `--proxy-ca-file` (`proxyCAFile`), read once when the settings are made, so a file that is
/// missing, too large or holds no certificate stops the start instead of failing every https
/// upstream later. OpenSSL (Linux) reads the file by its path; URLSession (Darwin) takes the
/// certificates, as DER.
package struct ProxyCAFile: Sendable, Equatable {
    /// The path as given.
    package let path: String
    /// Each certificate of the file, DER.
    package let certificates: [[UInt8]]

    /// Reads and checks the file at `path`; the error says why it cannot be used (the caller
    /// names the setting).
    package init(path: String) throws(CertificateFile.Problem) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CertificateFile.Problem("no readable file there (\(Sys.errorText(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw CertificateFile.Problem("not a file") }
        guard info.st_size <= CertificateFile.maxBytes else {
            throw CertificateFile.Problem("\(info.st_size) bytes, more than a CA file's \(CertificateFile.maxBytes)")
        }
        guard let bytes = FileBytes.read(path) else { throw CertificateFile.Problem("no readable file there (\(Sys.errorText(errno)))") }
        // Checked again after reading: the file may have grown in between.
        guard bytes.count <= CertificateFile.maxBytes else {
            throw CertificateFile.Problem("more than a CA file's \(CertificateFile.maxBytes) bytes")
        }
        let found = try CertificateFile.certificates(in: bytes)
        try ProxyCAFile.checkForThisSystem(found)
        self.path = path
        certificates = found.der
    }

    /// What this system's TLS adds to the format's checks.
    private static func checkForThisSystem(_ found: (der: [[UInt8]], encoding: CertificateFile.Encoding)) throws(CertificateFile.Problem) {
        #if canImport(Darwin)
        // The Security framework parses each certificate now, so one it refuses stops the start.
        for (index, der) in found.der.enumerated() where !SystemServerTrust.isCertificate(der) {
            throw CertificateFile.Problem("certificate \(index + 1) is not an X.509 certificate the Security framework reads")
        }
        #else
        // OpenSSL's SSL_CTX_load_verify_locations reads PEM only: a DER file would fail at the first https upstream.
        if found.encoding == .der {
            throw CertificateFile.Problem("a DER certificate, and OpenSSL reads PEM here: convert it with `openssl x509 -inform der -in FILE -out FILE.pem`")
        }
        #endif
    }
}
