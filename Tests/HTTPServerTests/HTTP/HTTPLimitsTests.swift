import Foundation
import XCTest
import HTTPServer
import TestSupport

/// Every bound answers with its status and closes, and the server goes on serving others.
final class HTTPLimitsTests: XCTestCase {
    func testOversizedHeadersGet431() throws {
        let f = try WireFixture { $0.maxHeaderBytes = 1024 }
        let (r, c) = try f.raw("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 2000))\r\n\r\n")
        XCTAssertEqual(r.status, 431)
        XCTAssertEqual(r.header("Connection"), "close")
        XCTAssertTrue(c.isClosedByPeer())
        XCTAssertEqual(try f.request("GET", "/hello").status, 200)
    }

    func testHeadersThatNeverEndGet431WithoutUnboundedBuffering() throws {
        let f = try WireFixture { $0.maxHeaderBytes = 1024 }
        let c = try f.client()
        try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
        for _ in 0..<20 { try c.send("X-Filler: \(String(repeating: "b", count: 100))\r\n") }
        XCTAssertEqual(try c.readResponse().status, 431)
    }

    func testOverlongRequestLineGets414() throws {
        let f = try WireFixture { $0.maxRequestLineBytes = 512 }
        let (r, _) = try f.raw("GET /\(String(repeating: "x", count: 600)) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(r.status, 414)
    }

    func testOversizedBodyGets413BeforeItIsSent() throws {
        let f = try WireFixture { $0.maxBodyBytes = 1000 }
        let c = try f.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        let r = try c.readResponse()
        XCTAssertEqual(r.status, 413)
        XCTAssertTrue(c.isClosedByPeer())
    }

    func testOversizedChunkedBodyGets413() throws {
        let f = try WireFixture { $0.maxBodyBytes = 1000 }
        let chunk = String(repeating: "z", count: 600)
        let (r, _) = try f.raw("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        XCTAssertEqual(r.status, 413)
    }

    func testBodyExactlyAtTheLimitIsAccepted() throws {
        let f = try WireFixture { $0.maxBodyBytes = 1000 }
        let r = try f.request("POST", "/echo", body: [UInt8](repeating: 65, count: 1000))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.body.count, 1000)
    }

    func testSlowClientGets408ThenClose() throws {
        let f = try WireFixture { $0.headerTimeout = 0.2 }
        let c = try f.client()
        try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n")   // never finishes its head
        let r = try c.readResponse()                        // blocks until the server's timer answers
        XCTAssertEqual(r.status, 408)
        XCTAssertTrue(c.isClosedByPeer())
    }

    func testSlowBodyGets408() throws {
        let f = try WireFixture { $0.headerTimeout = 0.2 }
        let c = try f.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        XCTAssertEqual(try c.readResponse().status, 408)
    }

    func testIdleKeepAliveConnectionIsClosed() throws {
        let f = try WireFixture { $0.idleTimeout = 0.2 }
        let c = try f.client()
        try c.sendRequest("GET", "/hello")
        XCTAssertEqual(try c.readResponse().status, 200)
        XCTAssertTrue(c.isClosedByPeer(), "an idle connection must be closed by the server")
    }

    func testConnectionLimitAnswers503AndRecovers() throws {
        let f = try WireFixture { $0.maxConnections = 2 }
        let a = try f.client(), b = try f.client()
        // Make sure both are accepted and counted before the third arrives.
        try a.sendRequest("GET", "/hello"); XCTAssertEqual(try a.readResponse().status, 200)
        try b.sendRequest("GET", "/hello"); XCTAssertEqual(try b.readResponse().status, 200)
        let c = try f.client()
        let refused = try c.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertNotNil(refused.header("Date"))
        XCTAssertEqual(refused.header("Content-Length"), String(refused.body.count))
        a.shutdownWrite()
        XCTAssertTrue(a.isClosedByPeer())
        // Once a slot is free again, new clients are served (the server releases the slot when it sees EOF).
        var served = false
        for _ in 0..<50 where !served {
            let d = try f.client()
            try? d.sendRequest("GET", "/hello")
            if let r = try? d.readResponse(), r.status == 200 { served = true }
        }
        XCTAssertTrue(served)
    }

    func testMalformedRequestsGet400AndOthersAreStillServed() throws {
        let f = try WireFixture()
        let bad = [
            "GARBAGE\r\n\r\n",
            "GET /hello\r\nHost: x\r\n\r\n",
            "GET /hello HTTP/1.1 extra\r\nHost: x\r\n\r\n",
            "GET /hello HTTP/9\r\nHost: x\r\n\r\n",
            "GET hello HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /hello HTTP/1.1\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: x\r\n folded: value\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX",
            "G\u{01}T /hello HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: a b\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: x/y\r\n\r\n",
        ]
        for text in bad {
            let (r, c) = try f.raw(text)
            XCTAssertTrue((400..<500).contains(r.status) || r.status == 505, "\(text.debugDescription) → \(r.status)")
            XCTAssertEqual(r.header("Connection"), "close", text.debugDescription)
            XCTAssertTrue(c.isClosedByPeer(), text.debugDescription)
        }
        XCTAssertEqual(try f.request("GET", "/hello").status, 200)
    }

    func testBinaryNoiseDoesNotHurtTheServer() throws {
        let f = try WireFixture()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<30 {
            let c = try f.client()
            let noise = (0..<Int.random(in: 1...3000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try? c.send(noise)
            c.shutdownWrite()
            _ = c.isClosedByPeer()
        }
        XCTAssertEqual(try f.request("GET", "/hello").status, 200)
    }

    func testClientVanishingMidRequestDoesNotDisturbOthers() throws {
        let f = try WireFixture()
        for cut in ["POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part", "GET /hel", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"] {
            let c = try f.client()
            try c.send(cut)
            // Dropped without a word: the next client must not notice.
        }
        let survivor = try f.client()
        try survivor.sendRequest("GET", "/hello")
        XCTAssertEqual(try survivor.readResponse().text, "hello\n")
    }

    func testManyConcurrentClients() throws {
        let f = try WireFixture()
        let port = f.port
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            do {
                let c = try TestHTTPClient(port: port)
                for j in 0..<5 {
                    try c.sendRequest("GET", "/items/\(i)-\(j)")
                    let r = try c.readResponse()
                    if r.jsonObject?["id"] as? String != "\(i)-\(j)" { failures.withLock { $0.append("\(i)-\(j): \(r.text)") } }
                }
            } catch {
                failures.withLock { $0.append("\(i): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
    }
}
