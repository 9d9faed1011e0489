#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// SkyZone in the state file: every account (profile, username, password), the next id, and
/// the live sign-in tokens oldest first. The lookup tables are rebuilt on restore.
package struct SkyZoneSnapshot: Codable, Sendable, Equatable {
    struct Account: Codable, Sendable, Equatable {
        var profile: SkyZoneProfile
        /// As first given; matched case-insensitively.
        var username: String?
        var password: String?
    }

    struct Token: Codable, Sendable, Equatable {
        var token: String
        var id: Int
    }

    /// By id.
    var accounts: [Account]
    var nextId: Int
    /// Oldest first: replayed into the bounded token store, so its capacity holds for any file.
    var tokens: [Token]
}

extension SkyZone: PersistentSystem {
    package var stateKey: String { "skyzone" }
    package var stateChanges: ChangeSignal { state.changes }

    package func snapshot() -> SkyZoneSnapshot {
        let s = state.value
        var usernames: [Int: String] = [:]
        for (username, id) in s.idByUsername { usernames[id] = username }
        let accounts = s.accounts.keys.sorted().compactMap { id -> SkyZoneSnapshot.Account? in
            guard let account = s.accounts[id] else { return nil }
            // The profile's e-mail is the username as typed; the table holds it lower-cased.
            let username = usernames[id].map { account.profile.email.lowercased() == $0 ? account.profile.email : $0 }
            return SkyZoneSnapshot.Account(profile: account.profile, username: username, password: account.password)
        }
        return SkyZoneSnapshot(accounts: accounts, nextId: s.nextId,
                               tokens: s.tokens.ordered.map { SkyZoneSnapshot.Token(token: $0.token, id: $0.value) })
    }

    /// Rebuilds the state; a file with an id, username or social pair twice, or a token of no
    /// account, is refused (`StateRestoreError`). More tokens than the store holds keep the newest.
    package func restore(_ snapshot: SkyZoneSnapshot) throws {
        var restored = State(nextId: snapshot.nextId)
        for account in snapshot.accounts {
            let id = account.profile.id
            guard restored.accounts[id] == nil else { throw StateRestoreError("accounts: id \(id) twice") }
            restored.accounts[id] = Account(profile: account.profile, password: account.password)
            if let username = account.username {
                guard restored.idByUsername.updateValue(id, forKey: username.lowercased()) == nil else {
                    throw StateRestoreError("accounts: username \(username) twice")
                }
            }
            if !account.profile.externalToken.isEmpty, !account.profile.externalType.isEmpty {
                let key = SkyZone.socialKey(account.profile.externalType, account.profile.externalToken)
                guard restored.idBySocial.updateValue(id, forKey: key) == nil else {
                    throw StateRestoreError("accounts: the social sign-in \(key) twice")
                }
            }
            // Never hand out an id already used, whatever the file says.
            restored.nextId = max(restored.nextId, id + 1)
        }
        for entry in snapshot.tokens {
            guard restored.accounts[entry.id] != nil else {
                throw StateRestoreError("tokens: token \(entry.token) belongs to no account (id \(entry.id))")
            }
            guard restored.tokens[entry.token] == nil else { throw StateRestoreError("tokens: token \(entry.token) twice") }
            restored.tokens.insert(entry.token, entry.id)
        }
        state.replace(restored)
    }
}

/// In the change log: an account upserted by id when it changes, a token by itself; the next id whole.
extension SkyZone: RecordedSystem {
    /// An account as the log compares it (the username is looked up only for a changed one).
    struct Recorded: Equatable {
        var profile: SkyZoneProfile
        var password: String?
    }

    package func records(into sink: inout RecordSink) {
        // Under the state's lock, with no copy kept: a copy held past the lock would make the
        // next change copy every account (what made each write cost the whole state).
        state.drain { s in
            let accounts = s.touchedAccounts.take(), tokens = s.tokens.touched.take()
            let encoder = StateCoding.encoder()
            sink.field("nextId", json: Array("\(s.nextId)".utf8))
            sink.keyed("accounts", touched: accounts, count: s.accounts.count,
                       all: { s.accounts.lazy.map { ("\($0.key)", Recorded(profile: $0.value.profile, password: $0.value.password)) } },
                       lookup: { key in Int(key).flatMap { s.accounts[$0] }.map { Recorded(profile: $0.profile, password: $0.password) } }) { _, account in
                let id = account.profile.id
                // The username as typed is the e-mail when it matches (the snapshot's rule); a seed
                // account whose e-mail differs is looked up in the table (rare: seeds only).
                let email = account.profile.email
                var username: String?
                if s.idByUsername[email.lowercased()] == id { username = email } else {
                    username = s.idByUsername.first { $0.value == id }?.key
                }
                let snapshot = SkyZoneSnapshot.Account(profile: account.profile, username: username, password: account.password)
                return (try? [UInt8](encoder.encode(snapshot))) ?? Array("null".utf8)
            }
            sink.keyed("tokens", touched: tokens, count: s.tokens.count, all: { s.tokens.values.lazy.map { ($0.key, $0.value) } },
                       lookup: { s.tokens[$0] }) { token, id in
                var out: [UInt8] = Array("{\"id\":\(id),\"token\":".utf8)
                JSONText.appendQuoted(token, to: &out)
                out.append(UInt8(ascii: "}"))
                return out
            }
        }
    }
}
