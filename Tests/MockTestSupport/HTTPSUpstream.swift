import Foundation
import XCTest

/// An HTTPS upstream on 127.0.0.1 for the outbound client's TLS tests: Python's `ssl` and
/// `http.server`, with a test CA and a leaf for `localhost` / 127.0.0.1 made by the `openssl` CLI.
/// `GET /hello` answers a short text, `GET /chunked` and `GET /large` 3 MiB (chunked, or with a
/// Content-Length), `POST /echo` the request body; `POST /hook` keeps its body and
/// `GET /hooks` lists those kept, one a line.
package final class HTTPSUpstream: @unchecked Sendable {
    package let port: Int
    /// The test CA's certificate (PEM): trust it with `--proxy-ca-file`.
    package let caFile: String
    /// The bytes `/chunked` and `/large` answer.
    package static let large: [UInt8] = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    private let process: Process
    private let directory: URL

    /// Skips the test (XCTSkip, with the reason) when `openssl` or `python3` is missing.
    package init() throws {
        guard let openssl = HTTPSUpstream.find("openssl"), let python = HTTPSUpstream.find("python3") else {
            throw XCTSkip("the TLS tests need the openssl CLI and python3 on PATH")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("https-upstream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let d = directory.path
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: d + "/leaf.ext", atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try HTTPSUpstream.run(openssl, ["req", "-x509"] + ec + ["-keyout", d + "/ca.key", "-out", d + "/ca.pem", "-days", "2", "-subj", "/CN=mock-server test CA",
                                                             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try HTTPSUpstream.run(openssl, ["req"] + ec + ["-keyout", d + "/leaf.key", "-out", d + "/leaf.csr", "-subj", "/CN=localhost"])
        try HTTPSUpstream.run(openssl, ["x509", "-req", "-in", d + "/leaf.csr", "-CA", d + "/ca.pem", "-CAkey", d + "/ca.key", "-CAcreateserial",
                                        "-out", d + "/leaf.pem", "-days", "2", "-extfile", d + "/leaf.ext"])
        caFile = d + "/ca.pem"
        try HTTPSUpstream.script.write(toFile: d + "/server.py", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [d + "/server.py", d + "/leaf.pem", d + "/leaf.key"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        // The script prints its port once it listens: the first line, read blocking.
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw XCTSkip("the Python HTTPS upstream did not start: \(String(decoding: line, as: UTF8.self))")
        }
        self.port = port
    }

    package func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func find(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        p.standardError = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("openssl \(arguments.first ?? "") failed (the TLS tests need OpenSSL 3's CLI): \(text)") }
    }

    private static let script = #"""
import http.server, ssl, sys

HOOKS = []
LARGE = bytes(((i * 31) + (i >> 9)) & 0xFF for i in range(3 << 20))

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/hooks":
            body = b"\n".join(HOOKS)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/hello":
            body = b"hello over tls, SNI " + str(getattr(self.connection, "mock_sni", None)).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/large":
            self.send_response(200)
            self.send_header("Content-Length", str(len(LARGE)))
            self.end_headers()
            self.wfile.write(LARGE)
        elif self.path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            offset, size = 0, 1
            while offset < len(LARGE):
                piece = LARGE[offset:offset + size]
                self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                offset += len(piece)
                size = size * 3 + 1
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_error(404)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/hook":
            HOOKS.append(body)
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])

def remember_sni(sock, name, ctx):
    sock.mock_sni = name

context.sni_callback = remember_sni
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#
}
