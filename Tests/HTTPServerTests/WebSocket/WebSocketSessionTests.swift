import XCTest
import HTTPServer
import TestSupport

final class WebSocketSessionTests: XCTestCase {
    // MARK: - Helpers

    /// A client frame as it appears on the wire: masked (unless told otherwise) with a fixed key.
    private func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true,
                       rsv: UInt8 = 0, mask: UInt32 = 0x37FA_213D) -> [UInt8] {
        var bytes: [UInt8] = []
        WebSocketFrameHeader.encode(fin: fin, rsv: rsv, opcode: opcode, payloadLength: payload.count,
                                    mask: masked ? mask : nil, into: &bytes)
        for (i, byte) in payload.enumerated() {
            bytes.append(masked ? byte ^ WebSocketMask.keyByte(mask, i) : byte)
        }
        return bytes
    }

    private func text(_ s: String, fin: Bool = true) -> [UInt8] { frame(WebSocketOpcode.text, Array(s.utf8), fin: fin) }

    private func closePayload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + reason
    }

    /// The events for `input` fed in one read to a fresh session.
    private func events(_ input: [UInt8], max: Int = 1 << 20) -> [WebSocketSessionEvent] {
        var session = WebSocketSession(maxMessageBytes: max)
        var out: [WebSocketSessionEvent] = []
        session.receive(input, into: &out)
        return out
    }

    /// The server's close frame with this code (no reason), followed by the close instruction.
    private func closedWith(_ code: UInt16, in events: [WebSocketSessionEvent], file: StaticString = #filePath, line: UInt = #line) {
        guard events.count >= 2, case .send(let bytes) = events[events.count - 2], events.last == .closeConnection else {
            return XCTFail("expected close \(code), got \(events)", file: file, line: line)
        }
        XCTAssertEqual(bytes.first, 0x88, file: file, line: line)
        XCTAssertGreaterThanOrEqual(bytes.count, 4, file: file, line: line)
        if bytes.count >= 4 {
            XCTAssertEqual(UInt16(bytes[2]) << 8 | UInt16(bytes[3]), code, file: file, line: line)
            XCTAssertEqual(Int(bytes[1]), bytes.count - 2, "close frame length", file: file, line: line)
        }
    }

    // MARK: - Data frames

    func testRFC6455MaskedHelloExample() {
        // RFC 6455 §5.7: a single-frame masked text message containing "Hello".
        let wire: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        XCTAssertEqual(events(wire), [.message(.text("Hello"))])
    }

    func testBinaryMessage() {
        let payload: [UInt8] = [0, 1, 2, 0xFF, 0x80]
        XCTAssertEqual(events(frame(WebSocketOpcode.binary, payload)), [.message(.binary(payload))])
    }

    func testEmptyMessages() {
        XCTAssertEqual(events(text("") + frame(WebSocketOpcode.binary, [])), [.message(.text("")), .message(.binary([]))])
    }

    func testRawBufferEntryPoint() {
        var session = WebSocketSession(maxMessageBytes: 100)
        var out: [WebSocketSessionEvent] = []
        text("raw").withUnsafeBytes { session.receive($0, into: &out) }
        XCTAssertEqual(out, [.message(.text("raw"))])
    }

    func testFramesSplitByteByByte() {
        let big = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let wire = text("héllo") + frame(WebSocketOpcode.ping, [1, 2]) + frame(WebSocketOpcode.binary, big) + text("", fin: true)
        var session = WebSocketSession(maxMessageBytes: 1000)
        var out: [WebSocketSessionEvent] = []
        for byte in wire { session.receive([byte], into: &out) }
        XCTAssertEqual(out, [.message(.text("héllo")), .send([0x8A, 0x02, 1, 2]), .message(.binary(big)), .message(.text(""))])
        XCTAssertEqual(out, events(wire, max: 1000), "byte-by-byte and one read must agree")
    }

    func testSeveralFramesInOneRead() {
        let wire = text("one") + text("two") + frame(WebSocketOpcode.binary, [3])
        XCTAssertEqual(events(wire), [.message(.text("one")), .message(.text("two")), .message(.binary([3]))])
    }

    func testSplitsAtEveryPosition() {
        let wire = text("fragmented ", fin: false) + frame(WebSocketOpcode.ping, Array("x".utf8))
            + frame(WebSocketOpcode.continuation, Array("text".utf8))
        let expected = events(wire)
        XCTAssertEqual(expected, [.send([0x8A, 0x01, UInt8(ascii: "x")]), .message(.text("fragmented text"))])
        for cut in 1..<wire.count {
            var session = WebSocketSession(maxMessageBytes: 100)
            var out: [WebSocketSessionEvent] = []
            session.receive(Array(wire[..<cut]), into: &out)
            session.receive(Array(wire[cut...]), into: &out)
            XCTAssertEqual(out, expected, "cut at \(cut)")
        }
    }

    func testFragmentationWithInterleavedPing() {
        var session = WebSocketSession(maxMessageBytes: 100)
        var out: [WebSocketSessionEvent] = []
        session.receive(text("Hel", fin: false), into: &out)
        XCTAssertEqual(out, [])
        session.receive(frame(WebSocketOpcode.ping, Array("ping!".utf8)), into: &out)
        // The pong goes out at once, before the message is complete.
        XCTAssertEqual(out, [.send([0x8A, 0x05] + Array("ping!".utf8))])
        session.receive(frame(WebSocketOpcode.continuation, Array("lo, ".utf8), fin: false), into: &out)
        session.receive(frame(WebSocketOpcode.continuation, Array("world".utf8)), into: &out)
        XCTAssertEqual(out.last, .message(.text("Hello, world")))
        XCTAssertEqual(out.count, 2)
    }

    func testFragmentedBinary() {
        let wire = frame(WebSocketOpcode.binary, [1, 2], fin: false) + frame(WebSocketOpcode.continuation, [3], fin: false)
            + frame(WebSocketOpcode.continuation, [], fin: false) + frame(WebSocketOpcode.continuation, [4])
        XCTAssertEqual(events(wire), [.message(.binary([1, 2, 3, 4]))])
    }

    func testSixteenBitLength() {
        let payload = (0..<200).map { UInt8(truncatingIfNeeded: $0) }
        let wire = frame(WebSocketOpcode.binary, payload)
        XCTAssertEqual(Array(wire[0...3]), [0x82, 0xFE, 0x00, 0xC8])
        XCTAssertEqual(events(wire), [.message(.binary(payload))])
    }

    func testSixtyFourBitLength() {
        let payload = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let wire = frame(WebSocketOpcode.binary, payload)
        XCTAssertEqual(wire[1], 0xFF)
        XCTAssertEqual(events(wire), [.message(.binary(payload))])
    }

    func testNonMinimalLengthEncodingAccepted() {
        // "abc" announced with a 16-bit and with a 64-bit length.
        let masked: [UInt8] = [0, 0, 0, 0] + Array("abc".utf8)
        let wire16: [UInt8] = [0x81, 0xFE, 0x00, 0x03] + masked
        let wire64: [UInt8] = [0x81, 0xFF, 0, 0, 0, 0, 0, 0, 0, 3] + masked
        XCTAssertEqual(events(wire16 + wire64), [.message(.text("abc")), .message(.text("abc"))])
    }

    func testUnsolicitedPongIgnored() {
        XCTAssertEqual(events(frame(WebSocketOpcode.pong, [9, 9]) + text("after")), [.message(.text("after"))])
    }

    func testPingWithMaximumPayload() {
        let payload = [UInt8](repeating: 0x5A, count: 125)
        XCTAssertEqual(events(frame(WebSocketOpcode.ping, payload)), [.send([0x8A, 125] + payload)])
    }

    // MARK: - Protocol errors

    func testUnmaskedFrameIs1002() {
        closedWith(1002, in: events(frame(WebSocketOpcode.text, Array("hi".utf8), masked: false)))
    }

    func testReservedBitsAre1002() {
        for rsv: UInt8 in [1, 2, 4, 7] {
            closedWith(1002, in: events(frame(WebSocketOpcode.text, Array("hi".utf8), rsv: rsv)))
        }
    }

    func testReservedOpcodesAre1002() {
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            closedWith(1002, in: events(frame(opcode, [])))
        }
    }

    func testFragmentedControlFrameIs1002() {
        closedWith(1002, in: events(frame(WebSocketOpcode.ping, [1], fin: false)))
        closedWith(1002, in: events(frame(WebSocketOpcode.close, [], fin: false)))
    }

    func testOversizedControlFrameIs1002() {
        closedWith(1002, in: events(frame(WebSocketOpcode.ping, [UInt8](repeating: 1, count: 126))))
        closedWith(1002, in: events(frame(WebSocketOpcode.close, closePayload(1000, [UInt8](repeating: 0x61, count: 124)))))
    }

    func testContinuationWithoutMessageIs1002() {
        closedWith(1002, in: events(frame(WebSocketOpcode.continuation, Array("x".utf8))))
        // Also after a message has completed.
        closedWith(1002, in: events(text("done") + frame(WebSocketOpcode.continuation, [])))
    }

    func testNewDataFrameInsideFragmentedMessageIs1002() {
        closedWith(1002, in: events(text("a", fin: false) + text("b")))
        closedWith(1002, in: events(text("a", fin: false) + frame(WebSocketOpcode.binary, [1])))
    }

    func testSixtyFourBitLengthWithMostSignificantBitIs1002() {
        let wire: [UInt8] = [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4]
        closedWith(1002, in: events(wire))
    }

    func testNothingAfterFailure() {
        var session = WebSocketSession(maxMessageBytes: 100)
        var out: [WebSocketSessionEvent] = []
        session.receive(frame(WebSocketOpcode.text, [0x61], masked: false) + text("ignored"), into: &out)
        closedWith(1002, in: out)
        XCTAssertEqual(out.count, 2)
        session.receive(text("still ignored") + frame(WebSocketOpcode.ping, []), into: &out)
        XCTAssertEqual(out.count, 2)
        XCTAssertTrue(session.isClosing)
    }

    // MARK: - UTF-8

    func testInvalidUTF8Is1007() {
        closedWith(1007, in: events(frame(WebSocketOpcode.text, [0x61, 0xC0, 0x80])))           // overlong
        closedWith(1007, in: events(frame(WebSocketOpcode.text, [0xED, 0xA0, 0x80])))           // surrogate
        closedWith(1007, in: events(frame(WebSocketOpcode.text, [0xF4, 0x90, 0x80, 0x80])))     // > U+10FFFF
        closedWith(1007, in: events(frame(WebSocketOpcode.text, [0xE2, 0x82])))                 // truncated
    }

    func testInvalidUTF8FailsFastInFirstFragment() {
        var session = WebSocketSession(maxMessageBytes: 100)
        var out: [WebSocketSessionEvent] = []
        // The message is not finished, but no continuation can repair 0xFF.
        session.receive(frame(WebSocketOpcode.text, [0x61, 0xFF], fin: false), into: &out)
        closedWith(1007, in: out)
    }

    func testInvalidUTF8FailsFastInsideAFrame() {
        var session = WebSocketSession(maxMessageBytes: 100)
        var out: [WebSocketSessionEvent] = []
        let wire = frame(WebSocketOpcode.text, [0x61, 0x62, 0xF5, 0x63, 0x64, 0x65, 0x66])
        // Header (6 bytes) and the first three payload bytes: the bad byte is already there.
        session.receive(Array(wire[..<9]), into: &out)
        closedWith(1007, in: out)
    }

    func testCharacterSplitAcrossFragmentsIsValid() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let wire = frame(WebSocketOpcode.text, [euro[0]], fin: false) + frame(WebSocketOpcode.continuation, [euro[1]], fin: false)
            + frame(WebSocketOpcode.continuation, [euro[2]])
        XCTAssertEqual(events(wire), [.message(.text("€"))])
    }

    func testBinaryIsNotValidated() {
        XCTAssertEqual(events(frame(WebSocketOpcode.binary, [0xFF, 0xC0])), [.message(.binary([0xFF, 0xC0]))])
    }

    // MARK: - Size limit

    func testMessageOfExactlyTheLimitIsAccepted() {
        let payload = [UInt8](repeating: 7, count: 10)
        XCTAssertEqual(events(frame(WebSocketOpcode.binary, payload), max: 10), [.message(.binary(payload))])
    }

    func testOversizedFrameIs1009() {
        closedWith(1009, in: events(frame(WebSocketOpcode.binary, [UInt8](repeating: 7, count: 11)), max: 10))
    }

    func testOversizedFragmentedMessageIs1009() {
        let wire = frame(WebSocketOpcode.text, Array("123456".utf8), fin: false) + frame(WebSocketOpcode.continuation, Array("789012".utf8))
        closedWith(1009, in: events(wire, max: 10))
    }

    func testHugeDeclaredLengthIs1009FromHeaderAlone() {
        // 2^40 bytes announced: refused on the header, before any payload arrives.
        let header: [UInt8] = [0x82, 0xFF, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4]
        closedWith(1009, in: events(header, max: 16 << 20))
    }

    // MARK: - Close handshake

    func testCloseIsEchoedWithSameCode() {
        XCTAssertEqual(events(frame(WebSocketOpcode.close, closePayload(1000, Array("bye".utf8)))),
                       [.send([0x88, 0x02, 0x03, 0xE8]), .closeConnection])
    }

    func testEmptyCloseIsEchoedEmpty() {
        XCTAssertEqual(events(frame(WebSocketOpcode.close, [])), [.send([0x88, 0x00]), .closeConnection])
    }

    func testValidCloseCodesAreEchoed() {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999] {
            XCTAssertEqual(events(frame(WebSocketOpcode.close, closePayload(code))),
                           [.send([0x88, 0x02, UInt8(code >> 8), UInt8(code & 0xFF)]), .closeConnection], "code \(code)")
        }
    }

    func testInvalidCloseCodesAre1002() {
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] {
            closedWith(1002, in: events(frame(WebSocketOpcode.close, closePayload(code))))
        }
    }

    func testOneByteClosePayloadIs1002() {
        closedWith(1002, in: events(frame(WebSocketOpcode.close, [0x03])))
    }

    func testInvalidUTF8CloseReasonIs1007() {
        closedWith(1007, in: events(frame(WebSocketOpcode.close, closePayload(1000, [0xCE, 0xBA, 0xE1, 0xBD]))))
    }

    func testCloseInsideFragmentedMessageEndsIt() {
        let wire = text("part", fin: false) + frame(WebSocketOpcode.close, closePayload(1000)) + frame(WebSocketOpcode.continuation, Array("rest".utf8))
        XCTAssertEqual(events(wire), [.send([0x88, 0x02, 0x03, 0xE8]), .closeConnection])
    }

    func testDataAfterCloseIsIgnored() {
        let wire = text("first") + frame(WebSocketOpcode.close, []) + text("late") + frame(WebSocketOpcode.ping, [])
        XCTAssertEqual(events(wire), [.message(.text("first")), .send([0x88, 0x00]), .closeConnection])
    }

    func testServerInitiatedClose() {
        var session = WebSocketSession(maxMessageBytes: 100)
        var out: [WebSocketSessionEvent] = []
        XCTAssertFalse(session.isClosing)
        let close = session.initiateClose(code: 1001, reason: "bye")
        XCTAssertEqual(close, [0x88, 0x05, 0x03, 0xE9] + Array("bye".utf8))
        XCTAssertTrue(session.isClosing)
        XCTAssertEqual(session.initiateClose(code: 1001, reason: "again"), [], "only one close frame")
        // Data and pings are ignored until the peer's close, which ends the connection without an echo.
        session.receive(text("ignored") + frame(WebSocketOpcode.ping, [1]), into: &out)
        XCTAssertEqual(out, [])
        session.receive(frame(WebSocketOpcode.close, closePayload(1001)), into: &out)
        XCTAssertEqual(out, [.closeConnection])
    }

    func testServerInitiatedCloseDuringFrameDropsIt() {
        var session = WebSocketSession(maxMessageBytes: 100)
        var out: [WebSocketSessionEvent] = []
        let wire = text("half way")
        session.receive(Array(wire[..<8]), into: &out)
        _ = session.initiateClose(code: 1001, reason: "")
        session.receive(Array(wire[8...]) + frame(WebSocketOpcode.close, []), into: &out)
        XCTAssertEqual(out, [.closeConnection])
    }

    func testCloseFrameReasonIsTruncatedOnCharacterBoundary() {
        let frame = WebSocketSession.closeFrame(code: 1000, reason: String(repeating: "é", count: 100))
        XCTAssertEqual(Int(frame[1]), frame.count - 2)
        XCTAssertLessThanOrEqual(frame.count - 2, 125)
        XCTAssertEqual(validatedUTF8(frame[4...]), String(repeating: "é", count: 61))
    }

    // MARK: - Encoding

    func testEncodeText() {
        var buffer: [UInt8] = [0xAA]
        WebSocketPayload.text("hi").appendFrame(to: &buffer)
        XCTAssertEqual(buffer, [0xAA, 0x81, 0x02, 0x68, 0x69])
    }

    func testEncodeBinaryLengths() {
        for (count, headerPrefix) in [(125, [0x82, 125]), (126, [0x82, 126, 0, 126]), (65535, [0x82, 126, 0xFF, 0xFF]),
                                      (65536, [0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0])] as [(Int, [UInt8])] {
            var buffer: [UInt8] = []
            WebSocketPayload.binary([UInt8](repeating: 1, count: count)).appendFrame(to: &buffer)
            XCTAssertEqual(Array(buffer.prefix(headerPrefix.count)), headerPrefix, "\(count)")
            XCTAssertEqual(buffer.count, headerPrefix.count + count)
        }
    }
}
