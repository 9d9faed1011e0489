import XCTest
@testable import EmulationKit

/// The storage-free tokens of the rows app and the gateway.
final class SignedTokensTests: XCTestCase {
    func testSipHashReferenceVector() {
        // Reference vector from the SipHash paper's test set: key 00…0f, message 00…07.
        let key: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908)
        XCTAssertEqual(SipHash24.hash(0x0706_0504_0302_0100, key: key), 0x93f5_f579_9a93_2462)
    }

    func testIssuedTokensAreUUIDv4AndValidUntilRotation() throws {
        let tokens = SignedTokens(random: SystemRandomSource())
        let token = tokens.issue()
        XCTAssertNotNil(UUID(uuidString: token))
        XCTAssertEqual(Array(token)[14], "4", "version nibble")
        XCTAssertTrue("89ab".contains(Array(token)[19]), "variant bits")
        XCTAssertEqual(token, token.lowercased())
        XCTAssertTrue(tokens.isValid(token))
        XCTAssertFalse(tokens.isValid(token.uppercased()), "tokens compare exactly (API.md §1)")
        tokens.rotate()
        XCTAssertFalse(tokens.isValid(token))
    }

    func testForgedAndMalformedTokensAreRefused() {
        let tokens = SignedTokens(random: SystemRandomSource())
        let token = tokens.issue()
        var chars = Array(token)
        chars[35] = chars[35] == "0" ? "1" : "0"
        XCTAssertFalse(tokens.isValid(String(chars)), "one changed digit")
        for bad in ["", "Bearer \(token)", String(token.dropLast()), token + "0", UUID().uuidString, "zzzzzzzz-zzzz-4zzz-8zzz-zzzzzzzzzzzz"] {
            XCTAssertFalse(tokens.isValid(bad), bad)
        }
    }

    func testTokenTextMatchesFoundationsUUID() {
        let random = SeededRandomSource(seed: 7)
        for _ in 0..<100 {
            let text = random.token()
            XCTAssertEqual(UUID(uuidString: text)?.uuidString.lowercased(), text)
        }
    }
}

import Foundation
