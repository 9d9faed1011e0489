/// The rows app in the state file: the key its tokens are signed with, so a token a client
/// saved keeps working after a restart (the original never expires them).
public struct RowsSnapshot: Codable, Sendable, Equatable {
    /// 128 bits as 32 lower-case hex digits (JSON numbers lose 64-bit precision in many readers).
    public var tokenKey: String
}

extension RowsApp: PersistentSystem {
    public var stateKey: String { "rows" }
    public var stateChanges: ChangeSignal { tokens.keyChanges }
    public func snapshot() -> RowsSnapshot { RowsSnapshot(tokenKey: tokens.keyHex) }
    public func restore(_ snapshot: RowsSnapshot) throws { try tokens.restore(keyHex: snapshot.tokenKey) }
}

extension SignedTokens {
    /// The signing key as 32 hex digits: what a system's snapshot keeps.
    var keyHex: String {
        let (a, b) = key
        return SignedTokens.hex(a) + SignedTokens.hex(b)
    }

    /// Puts back a key from `keyHex`: every token issued under it is valid again.
    func restore(keyHex: String) throws {
        let digits = Array(keyHex.utf8)
        guard digits.count == 32, let a = UInt64(String(decoding: digits[0..<16], as: UTF8.self), radix: 16),
              let b = UInt64(String(decoding: digits[16..<32], as: UTF8.self), radix: 16) else {
            throw StateRestoreError("a token key must be 32 hex digits, not \"\(keyHex)\"")
        }
        restore(key: (a, b))
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
