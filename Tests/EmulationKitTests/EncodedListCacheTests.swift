import Foundation
import XCTest
import HTTPServer
@testable import EmulationKit

/// Cached per-element JSON gives exactly what a fresh encoding gives, whatever the list became.
final class EncodedListCacheTests: XCTestCase {
    func testEveryChangeOfTheListEncodesAsAFreshCacheWould() {
        let encodeCount = Locked(0)
        func encode(_ n: Int) -> [UInt8] { encodeCount.withLock { $0 += 1 }; return Array("\(n)".utf8) }
        let cache = EncodedListCache<Int>()
        let lists: [[Int]] = [[], [1, 2, 3], [1, 2, 3, 4], [3, 4, 5], [9], [9, 9, 10], [], [7, 8]]
        for list in lists {
            XCTAssertEqual(String(decoding: cache.json(for: list, encode: encode), as: UTF8.self),
                           "[" + list.map(String.init).joined(separator: ",") + "]")
        }
        // 3 + 1 + 1 (5) + 1 (9) + 2 (9, 10) + 2 (7, 8): only new elements were encoded.
        XCTAssertEqual(encodeCount.withLock { $0 }, 10)
    }
}
