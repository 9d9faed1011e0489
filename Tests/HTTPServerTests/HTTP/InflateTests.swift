import Foundation
@testable import HTTPServer
import XCTest

/// `Inflate` against what Python's zlib writes: stored, fixed and dynamic blocks, every level,
/// gzip members with optional header fields, zlib and raw `deflate`; then damaged input.
final class InflateTests: XCTestCase {
    private struct Case: Decodable {
        let name: String
        let encoding: String
        let compressed: String
        let plain: String
    }

    /// The cases, made by python3 (skipped where it is missing).
    private func cases() throws -> [(name: String, encoding: String, compressed: [UInt8], plain: [UInt8])] {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/python3" }
        guard let python = path.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("these tests need python3 on PATH to compress their inputs")
        }
        let script = #"""
        import base64, gzip, io, json, random, zlib
        rnd = random.Random(7)
        inputs = {
            "empty": b"",
            "short": b"hello, hello, hello",
            "text": (b"The quick brown fox jumps over the lazy dog. " * 300) + bytes(range(256)),
            "random": bytes(rnd.getrandbits(8) for _ in range(70000)),
            "runs": b"a" * 100000 + b"b" * 3 + b"ab" * 5000,
            "json": json.dumps([{"id": i, "name": "user%d" % i, "ok": i % 3 == 0} for i in range(2000)]).encode(),
        }
        out = []
        def add(name, enc, data, plain):
            out.append({"name": name, "encoding": enc, "compressed": base64.b64encode(data).decode(), "plain": base64.b64encode(plain).decode()})
        for name, plain in inputs.items():
            for level in (0, 1, 6, 9):
                add("%s gzip %d" % (name, level), "gzip", gzip.compress(plain, compresslevel=level, mtime=0), plain)
                add("%s zlib %d" % (name, level), "deflate", zlib.compress(plain, level), plain)
                raw = zlib.compressobj(level, zlib.DEFLATED, -15)
                add("%s raw %d" % (name, level), "deflate", raw.compress(plain) + raw.flush(), plain)
            fixed = zlib.compressobj(6, zlib.DEFLATED, -15, 9, zlib.Z_FIXED)
            add("%s fixed" % name, "deflate", fixed.compress(plain) + fixed.flush(), plain)
        # A header with every optional field (FEXTRA, FNAME, FCOMMENT, FHCRC), and two members.
        body = zlib.compressobj(9, zlib.DEFLATED, -15)
        data = body.compress(b"named member") + body.flush()
        header = bytes([0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 3]) + bytes([3, 0]) + b"xyz" + b"name.txt\0" + b"a comment\0"
        header += (zlib.crc32(header) & 0xffff).to_bytes(2, "little")
        trailer = zlib.crc32(b"named member").to_bytes(4, "little") + len(b"named member").to_bytes(4, "little")
        add("header fields", "gzip", header + data + trailer, b"named member")
        add("two members", "x-gzip", gzip.compress(b"first ") + gzip.compress(b"second"), b"first second")
        print(json.dumps(out))
        """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try JSONDecoder().decode([Case].self, from: output).map { c in
            (c.name, c.encoding, [UInt8](try XCTUnwrap(Data(base64Encoded: c.compressed))), [UInt8](try XCTUnwrap(Data(base64Encoded: c.plain))))
        }
    }

    func testWhatZlibWritesIsDecoded() throws {
        let all = try cases()
        XCTAssertEqual(all.count, 6 * 13 + 2)
        for c in all {
            XCTAssertEqual(try Inflate.decode(c.compressed, contentEncoding: c.encoding, limit: 1 << 20), c.plain, c.name)
        }
    }

    func testACutBodyDecodesAsFarAsItGoesOnlyWhenPartial() throws {
        for c in try cases() where c.name.hasPrefix("text gzip") || c.name.hasPrefix("random zlib") || c.name.hasPrefix("json raw") {
            let cut = Array(c.compressed.prefix(c.compressed.count / 2))
            let start = try XCTUnwrap(Inflate.decode(cut, contentEncoding: c.encoding, limit: 1 << 20, partial: true), c.name)
            XCTAssertEqual(start, Array(c.plain.prefix(start.count)), c.name)
            XCTAssertGreaterThan(start.count, 0, c.name)
            XCTAssertThrowsError(try Inflate.decode(cut, contentEncoding: c.encoding, limit: 1 << 20), c.name)
            // With `cut`, the first 1,000 bytes of the whole (what a journal shows), not a failure.
            XCTAssertEqual(try Inflate.decode(c.compressed, contentEncoding: c.encoding, limit: 1000, cut: true), Array(c.plain.prefix(1000)), c.name)
        }
    }

    func testDamageAndSizeAreRefused() throws {
        let all = try cases()
        let text = try XCTUnwrap(all.first { $0.name == "text gzip 6" })
        var badChecksum = text.compressed
        badChecksum[badChecksum.count - 6] ^= 0xFF
        XCTAssertThrowsError(try Inflate.gunzip(badChecksum, limit: 1 << 20)) { error in
            XCTAssertEqual((error as? Inflate.Failure)?.reason, "the gzip checksum does not match")
        }
        XCTAssertThrowsError(try Inflate.gunzip(text.compressed, limit: text.plain.count - 1)) { error in
            XCTAssertEqual((error as? Inflate.Failure)?.reason, "the decoded body is larger than \(text.plain.count - 1) bytes")
        }
        // 100,000 bytes from a few hundred: the limit stops it long before the end.
        let runs = try XCTUnwrap(all.first { $0.name == "runs gzip 9" })
        XCTAssertLessThan(runs.compressed.count, 1000)
        XCTAssertThrowsError(try Inflate.gunzip(runs.compressed, limit: 4096))
        XCTAssertThrowsError(try Inflate.gunzip(Array("not gzip".utf8), limit: 100))
        XCTAssertThrowsError(try Inflate.deflate([0xFF, 0xFF, 0xFF], limit: 100), "block type 3 does not exist")
        XCTAssertNil(try Inflate.decode([1, 2, 3], contentEncoding: "br", limit: 100), "a coding it cannot decode is left alone")
        XCTAssertNil(try Inflate.decode([1, 2, 3], contentEncoding: "gzip, br", limit: 100))
        // Every cut and every flipped byte of a small stream ends in an answer or an error, never a crash.
        let short = try XCTUnwrap(all.first { $0.name == "json gzip 9" }).compressed.prefix(600)
        for i in short.indices {
            var flipped = Array(short)
            flipped[i] ^= 0x5A
            _ = try? Inflate.gunzip(flipped, limit: 1 << 16, partial: true)
            _ = try? Inflate.gunzip(Array(short.prefix(i)), limit: 1 << 16)
        }
    }
}
