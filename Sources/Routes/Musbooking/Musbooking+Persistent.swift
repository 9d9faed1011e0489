#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// Musbooking in the state file: its users (accounts and customer records, in the seed's own
/// format), the SMS codes not yet used and the login sessions with their expiry. The categories
/// and settings come from the seed; the lookup indexes are rebuilt on restore.
package struct MusbookingSnapshot: Codable, Sendable, Equatable {
    struct Code: Codable, Sendable, Equatable {
        var phone: String
        var code: String
    }

    struct Session: Codable, Sendable, Equatable {
        var token: String
        var userId: String
        var expiresAt: Date
    }

    /// In the order they were added.
    var users: [MusbookingUser]
    /// Oldest first.
    var codes: [Code]
    /// In no particular order.
    var sessions: [Session]
}

extension Musbooking: PersistentSystem {
    package var stateKey: String { "musbooking" }
    package var stateChanges: ChangeSignal { state.changes }

    package func snapshot() -> MusbookingSnapshot {
        let s = state.value
        return MusbookingSnapshot(users: s.order.compactMap { s.users[$0] },
                                  codes: s.codes.ordered.map { MusbookingSnapshot.Code(phone: $0.phone, code: $0.code) },
                                  sessions: s.sessions.map { MusbookingSnapshot.Session(token: $0.key, userId: $0.value.userId, expiresAt: $0.value.expiresAt) }
                                    .sorted { $0.token < $1.token })
    }

    /// By hand, reusing the JSON of the users and sessions already written (a stream of sign-ups appends
    /// users; `JSONEncoder` over every user would grow each write with the total). The same JSON
    /// as the snapshot's `Codable`.
    package func encodeSnapshot() throws -> Data {
        let s = state.value
        var out: [UInt8] = Array("{\"codes\":[".utf8)
        for (i, entry) in s.codes.ordered.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: Array("{\"code\":".utf8))
            JSONText.appendQuoted(entry.code, to: &out)
            out.append(contentsOf: Array(",\"phone\":".utf8))
            JSONText.appendQuoted(entry.phone, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: Array("],\"sessions\":".utf8))
        // In the table's order, not sorted: a write follows every login, and sorting thousands of
        // tokens each time costs more than the JSON; the restore does not depend on the order.
        out.append(contentsOf: sessionsJSON.json(for: s.sessions, encode: Musbooking.sessionJSON))
        out.append(contentsOf: Array(",\"users\":".utf8))
        var failure: (any Error)?
        out.append(contentsOf: usersJSON.json(for: s.order.compactMap { s.users[$0] }) { user in
            do { return try Musbooking.userJSON(user) } catch {
                failure = error
                return Array("null".utf8)
            }
        })
        if let failure { throw failure }
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }

    /// One user as `MusbookingUser.encode(to:)` writes it, keys sorted.
    private static func userJSON(_ user: MusbookingUser) throws -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        var first = true
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            out.append(contentsOf: Array((first ? "\"\(key)\":" : ",\"\(key)\":").utf8))
            JSONText.appendQuoted(value, to: &out)
            first = false
        }
        field("base", user.base)
        field("birthday", user.birthday?.formatted)
        field("email", user.email)
        field("fcm", user.fcm)
        field("firstName", user.firstName)
        field("id", user.id)
        out.append(contentsOf: Array(",\"isConfirmed\":\(user.isConfirmed)".utf8))
        field("lastName", user.lastName)
        field("login", user.login)
        if !user.parts.isEmpty {
            out.append(contentsOf: Array(",\"parts\":".utf8))
            out.append(contentsOf: try StateCoding.encoder().encode(user.parts))
        }
        field("password", user.password)
        field("phone", user.phone)
        field("room", user.room)
        field("surName", user.surName)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Puts back users, codes and sessions over the seed's categories; refuses a snapshot whose
    /// users or sessions contradict each other (`StateRestoreError` naming the first problem).
    package func restore(_ snapshot: MusbookingSnapshot) throws {
        let restored = try MusbookingState(seed: seed, maxPendingCodes: pendingCodeCap.limit, users: snapshot.users,
                                           codes: snapshot.codes.map { ($0.phone, $0.code) },
                                           sessions: snapshot.sessions.map { ($0.token, MusbookingState.Session(userId: $0.userId, expiresAt: $0.expiresAt)) })
        state.replace(restored)
    }
}

/// In the change log: a user upserted by id, a code by phone (a new code counts as the newest),
/// a session by token; each only when it changed.
extension Musbooking: RecordedSystem {
    package func records(into sink: inout RecordSink) {
        // Under the state's lock, with no copy kept (see SkyZone's).
        state.drain { s in
            let users = s.touchedUsers.take(), sessions = s.touchedSessions.take(), codes = s.codes.touched.take()
            sink.keyed("users", touched: users, count: s.users.count, all: { [order = s.order, all = s.users] in order.lazy.compactMap { id in all[id].map { (id, $0) } } },
                       lookup: { s.users[$0] }) { _, user in
                (try? Musbooking.userJSON(user)) ?? Array("null".utf8)
            }
            sink.keyed("codes", touched: codes, count: s.codes.count, all: { s.codes.ordered.lazy.map { ($0.phone, $0.code) } },
                       lookup: { s.codes[$0] }, updateMovesToEnd: true) { phone, code in
                var out: [UInt8] = Array("{\"code\":".utf8)
                JSONText.appendQuoted(code, to: &out)
                out.append(contentsOf: Array(",\"phone\":".utf8))
                JSONText.appendQuoted(phone, to: &out)
                out.append(UInt8(ascii: "}"))
                return out
            }
            sink.keyed("sessions", touched: sessions, count: s.sessions.count, all: { s.sessions.lazy.map { ($0.key, $0.value) } },
                       lookup: { s.sessions[$0] }, encode: Musbooking.sessionJSON)
        }
    }

    static func sessionJSON(_ token: String, _ session: MusbookingState.Session) -> [UInt8] {
        var out: [UInt8] = Array("{\"expiresAt\":\(session.expiresAt.timeIntervalSince1970),\"token\":".utf8)
        JSONText.appendQuoted(token, to: &out)
        out.append(contentsOf: Array(",\"userId\":".utf8))
        JSONText.appendQuoted(session.userId, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
