#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The outbox in the state file: every kept SMS and e-mail, oldest first.
package struct OutboxSnapshot: Codable, Sendable, Equatable {
    package var sms: [SentSMS]
    package var emails: [SentEmail]
}

extension Outbox: PersistentSystem {
    package var stateKey: String { "outbox" }
    package var stateChanges: ChangeSignal { messages.changes }

    package func snapshot() -> OutboxSnapshot {
        let m = messages.value
        return OutboxSnapshot(sms: m.sms, emails: m.emails)
    }

    /// By hand, from per-message JSON cached across writes (`JSONEncoder` took tens of
    /// milliseconds for a few thousand messages, time a change waits before it is on disk).
    /// The same JSON as `OutboxSnapshot`'s `Codable`.
    package func encodeSnapshot() throws -> Data {
        let m = messages.value
        var out: [UInt8] = Array("{\"emails\":".utf8)
        out.append(contentsOf: snapshotCache.emails.json(for: m.emails) { mail in
            Outbox.object([("body", mail.body), ("link", mail.link), ("sentAt", ISO8601.string(mail.sentAt)), ("subject", mail.subject), ("to", mail.to)])
        })
        out.append(contentsOf: Array(",\"sms\":".utf8))
        out.append(contentsOf: snapshotCache.sms.json(for: m.sms) { sms in
            Outbox.object([("code", sms.code), ("phone", sms.phone), ("sentAt", ISO8601.string(sms.sentAt)), ("text", sms.text)])
        })
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }

    /// `{"k":"v",…}` with `null` for nil, keys in the order given (sorted, as the encoder sorts them).
    private static func object(_ fields: [(String, String?)]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, (key, value)) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(key, to: &out)
            out.append(UInt8(ascii: ":"))
            if let value { JSONText.appendQuoted(value, to: &out) } else { out.append(contentsOf: [110, 117, 108, 108]) }   // null
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Keeps the newest `capacity` of each kind, as sending them would have.
    package func restore(_ snapshot: OutboxSnapshot) throws {
        let sms = Array(snapshot.sms.suffix(capacity)), emails = Array(snapshot.emails.suffix(capacity))
        messages.withLock { $0 = $0.replacing(sms: sms, emails: emails) }
    }
}

/// The outbox's per-message JSON, kept between writes of the state file.
final class OutboxSnapshotCache: Sendable {
    package let sms = EncodedListCache<SentSMS>()
    package let emails = EncodedListCache<SentEmail>()
}

/// In the change log: each kind is a list, dropped at the front and appended at the back.
extension Outbox: RecordedSystem {
    package func records(into sink: inout RecordSink) {
        // Under the lock, with no copy kept (see SkyZone's).
        messages.drain { m in
            sink.list("emails", m.emails, end: m.emailsEnd) { mail in
                Outbox.object([("body", mail.body), ("link", mail.link), ("sentAt", ISO8601.string(mail.sentAt)), ("subject", mail.subject), ("to", mail.to)])
            }
            sink.list("sms", m.sms, end: m.smsEnd) { sms in
                Outbox.object([("code", sms.code), ("phone", sms.phone), ("sentAt", ISO8601.string(sms.sentAt)), ("text", sms.text)])
            }
        }
    }
}
