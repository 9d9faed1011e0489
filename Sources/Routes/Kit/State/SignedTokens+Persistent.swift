import HTTPServer

/// A system whose tokens are signed (rows, gateway) in the state file: the signing key, so a
/// token a client saved keeps working after a restart (the originals never expire them), and
/// the tokens revoked one by one through the admin API, so they stay revoked.
package struct SignedTokensSnapshot: Codable, Sendable, Equatable {
    /// 128 bits as 32 lower-case hex digits (JSON numbers lose 64-bit precision in many readers).
    package var tokenKey: String
    /// The random halves of revoked tokens, 16 hex digits each; absent when none.
    package var revoked: [String]?
    /// Accounts `/__mock/accounts` added, by key (each its fields), and the seed's it removed;
    /// absent when none.
    package var addedAccounts: [String: [String: String]]?
    var removedAccounts: [String]?
    /// Tags of deleted accounts (16 hex digits each), whose tokens stay void; absent when none
    /// (and in state files written before accounts ended their sessions).
    package var endedAccounts: [String]?
    /// How many times each account was deleted under this key; absent when none.
    var accountGenerations: [String: UInt64]?
}
extension SignedTokens {
    /// The key and revocations as the state file keeps them.
    package var snapshot: SignedTokensSnapshot {
        let (key, revoked, ended, generations) = keyAndRevoked
        var snapshot = SignedTokensSnapshot(tokenKey: SignedTokens.hex(key.0) + SignedTokens.hex(key.1),
                                            revoked: revoked.isEmpty ? nil : revoked.map(SignedTokens.hex))
        snapshot.endedAccounts = ended.isEmpty ? nil : ended.map(SignedTokens.hex)
        snapshot.accountGenerations = generations.isEmpty ? nil : generations
        return snapshot
    }

    /// Puts back a key and its revocations: every other token issued under the key is valid again.
    package func restore(_ snapshot: SignedTokensSnapshot) throws {
        let keyHex = snapshot.tokenKey
        let digits = Array(keyHex.utf8)
        guard digits.count == 32, let a = SignedTokens.word(digits[0..<16]), let b = SignedTokens.word(digits[16..<32]) else {
            throw StateRestoreError("a token key must be 32 hex digits, not \"\(keyHex)\"")
        }
        let revoked = try SignedTokens.words(snapshot.revoked, "a revoked token")
        let ended = try SignedTokens.words(snapshot.endedAccounts, "a deleted account's tag")
        restore(key: (a, b), revoked: revoked, ended: ended, generations: snapshot.accountGenerations ?? [:])
    }

    private static func words(_ texts: [String]?, _ what: String) throws -> [UInt64] {
        var words: [UInt64] = []
        for text in texts ?? [] {
            let digits = Array(text.utf8)
            guard digits.count == 16, let word = SignedTokens.word(digits[...]) else {
                throw StateRestoreError("\(what) must be 16 hex digits, not \"\(text)\"")
            }
            words.append(word)
        }
        return words
    }

    /// The key, the revoked tokens and the deleted accounts as change-log fields (the snapshot's
    /// `tokenKey`, `revoked`, `endedAccounts`, `accountGenerations`).
    package func recordKey(into sink: inout RecordSink) {
        let snapshot = self.snapshot
        var key: [UInt8] = []
        JSONText.appendQuoted(snapshot.tokenKey, to: &key)
        sink.field("tokenKey", json: key)
        var revoked: [UInt8] = []
        RecordImage.appendStrings(snapshot.revoked ?? [], to: &revoked)
        sink.field("revoked", json: revoked)
        // Deleted accounts' tags and generations: without them a restart would bring a deleted
        // account's sessions back.
        var ended: [UInt8] = []
        RecordImage.appendStrings(snapshot.endedAccounts ?? [], to: &ended)
        sink.field("endedAccounts", json: ended)
        var generations: [UInt8] = [UInt8(ascii: "{")]
        for (i, (account, generation)) in (snapshot.accountGenerations ?? [:]).sorted(by: { $0.key < $1.key }).enumerated() {
            if i > 0 { generations.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(account, to: &generations)
            generations.append(UInt8(ascii: ":"))
            generations.append(contentsOf: String(generation).utf8)
        }
        generations.append(UInt8(ascii: "}"))
        sink.field("accountGenerations", json: generations)
    }

    /// 16 hex digits, nothing else (`UInt64(_:radix:)` alone would take a sign).
    private static func word(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard digits.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }) else { return nil }
        return UInt64(String(decoding: digits, as: UTF8.self), radix: 16)
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
