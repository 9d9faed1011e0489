// A closed-loop WebSocket load client for scripts/bench.sh: each connection sends LOGIN_CUSTOMER
// to the customer gateway and waits for its reply before sending the next. Prints one line
// `BENCH_RESULT rps=… requests=… p50_us=… p99_us=… errors=…`.
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

struct Arguments {
    var host = "127.0.0.1"
    var port = 8080
    var connections = 16
    var duration = 10.0
    var warmup = 2.0
    var path = "/customer-gateway/customer"

    init(_ args: [String]) {
        var i = 0
        while i + 1 < args.count {
            let value = args[i + 1]
            switch args[i] {
            case "--host": host = value
            case "--port": port = Int(value) ?? port
            case "--connections": connections = Int(value) ?? connections
            case "--duration": duration = Double(value) ?? duration
            case "--warmup": warmup = Double(value) ?? warmup
            case "--path": path = value
            default: break
            }
            i += 2
        }
    }
}

func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One blocking WebSocket client connection.
final class Client {
    let fd: Int32
    var buffer: [UInt8] = []

    init?(host: String, port: Int, path: String) {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
        guard fd >= 0, connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { return nil }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard send(Array(request.utf8)) else { return nil }
        // Read up to the end of the handshake response.
        while true {
            if let end = headEnd() {
                guard String(decoding: buffer[..<end], as: UTF8.self).hasPrefix("HTTP/1.1 101") else { return nil }
                buffer.removeFirst(end + 4)
                break
            }
            guard fill() else { return nil }
        }
    }

    deinit { close(fd) }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress.map { $0 + sent }, bytes.count - sent, 0) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// A masked text frame (clients must mask, RFC 6455 §5.3); a fixed mask is fine for load.
    static func textFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame.append(0x80 | 126)
            frame.append(UInt8(payload.count >> 8))
            frame.append(UInt8(payload.count & 0xff))
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame.append(contentsOf: mask)
        for (i, byte) in payload.enumerated() { frame.append(byte ^ mask[i & 3]) }
        return frame
    }

    /// Reads one whole server frame (unmasked); false when the connection ended.
    func readFrame() -> Bool {
        while true {
            if buffer.count >= 2 {
                var length = Int(buffer[1] & 0x7f)
                var header = 2
                if length == 126, buffer.count >= 4 { length = Int(buffer[2]) << 8 | Int(buffer[3]); header = 4 }
                else if length == 127, buffer.count >= 10 {
                    length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    header = 10
                } else if length >= 126 { length = Int.max / 2 }
                if buffer.count >= header + length {
                    buffer.removeFirst(header + length)
                    return true
                }
            }
            guard fill() else { return false }
        }
    }
}

/// Counts and latencies of one connection's thread, read after it joins.
final class Tally: @unchecked Sendable {
    var requests = 0
    var errors = 0
    var latencies: [UInt64] = []
}

let args = Arguments(Array(CommandLine.arguments.dropFirst()))
let start = monotonicNanos()
let measureFrom = start + UInt64(args.warmup * 1e9)
let end = measureFrom + UInt64(args.duration * 1e9)
let group = DispatchGroup()
var tallies: [Tally] = []
for index in 0..<args.connections {
    let tally = Tally()
    tallies.append(tally)
    group.enter()
    let thread = Thread {
        defer { group.leave() }
        guard let client = Client(host: args.host, port: args.port, path: args.path) else { tally.errors += 1; return }
        var sequence = 0
        while true {
            let t0 = monotonicNanos()
            if t0 >= end { return }
            sequence += 1
            let text = "{\"type\":\"LOGIN_CUSTOMER\",\"sequence_id\":\"\(index)-\(sequence)\",\"data\":{\"email\":\"fpi@bk.ru\",\"password\":\"123123\"}}"
            guard client.send(Client.textFrame(text)), client.readFrame() else { tally.errors += 1; return }
            let t1 = monotonicNanos()
            if t0 >= measureFrom {
                tally.requests += 1
                tally.latencies.append(t1 - t0)
            }
        }
    }
    thread.start()
}
group.wait()
let requests = tallies.reduce(0) { $0 + $1.requests }
let errors = tallies.reduce(0) { $0 + $1.errors }
let latencies = tallies.flatMap(\.latencies).sorted()
func percentile(_ p: Double) -> UInt64 {
    latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] / 1000
}
let rps = Double(requests) / args.duration
print("BENCH_RESULT rps=\(String(format: "%.0f", rps)) requests=\(requests) p50_us=\(percentile(0.5)) p99_us=\(percentile(0.99)) errors=\(errors)")
