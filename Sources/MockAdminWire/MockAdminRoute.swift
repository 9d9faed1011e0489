/// One operation of the admin API: its method and its path pattern, written once for the server's
/// route table and the admin client alike, so the client cannot call a path the server lacks.
///
/// The pattern is written as the server's router reads it: literal segments and `:name`
/// parameters (`/__mock/faults/:id`). `path(_:)` fills the parameters in:
///
///     MockAdminRoute.removeFault.path("7")           // "/__mock/faults/7"
///     MockAdminRoute.removeStub.path("a/b c")        // "/__admin/mappings/a%2Fb%20c"
public struct MockAdminRoute: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method, upper case (`GET`, `POST`, `PUT`, `DELETE`).
    public let method: String
    /// The path pattern: literal segments and `:name` parameters, e.g. `/__mock/accounts/:system/:id`.
    public let pattern: String

    /// An operation: `method` (upper case) on `pattern` (`:name` segments for the parameters).
    public init(_ method: String, _ pattern: String) {
        self.method = method
        self.pattern = pattern
    }

    /// `METHOD /pattern`, e.g. `DELETE /__mock/faults/:id`.
    public var description: String { "\(method) \(pattern)" }

    /// The names of the pattern's parameters, in order (`["system", "id"]`).
    public var parameters: [String] {
        pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    /// The path with the `:name` segments filled in order by `values`, each percent-encoded as one
    /// path segment (RFC 3986 `pchar`): a `/`, a space, a `%`, a `?` or a non-ASCII letter in a
    /// value is escaped (its UTF-8 bytes as `%XX`), and a value of `.` or `..` is written `%2E`
    /// or `%2E%2E` so that no client or proxy takes it for a dot segment. A parameter without a
    /// value is left as written; values beyond the parameters are ignored. The literal segments
    /// are kept as they are.
    public func path(_ values: String...) -> String { path(values) }

    /// The path with the `:name` segments filled in order by `values`, as the variadic
    /// `path(_:)` does: for values already in an array.
    public func path(_ values: [String]) -> String {
        var remaining = values[...]
        var segments: [String] = []
        for segment in pattern.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.hasPrefix(":"), let value = remaining.popFirst() {
                segments.append(MockAdminRoute.encodedSegment(value))
            } else {
                segments.append(String(segment))
            }
        }
        return segments.joined(separator: "/")
    }

    /// `value` as one path segment: RFC 3986's `pchar` (unreserved, sub-delims, `:` and `@`)
    /// kept, every other byte of its UTF-8 `%XX` with upper-case hex digits.
    static func encodedSegment(_ value: String) -> String {
        if value == "." || value == ".." { return String(repeating: "%2E", count: value.count) }
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isPathCharacter(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

    /// RFC 3986 `pchar` but `pct-encoded`: `ALPHA DIGIT - . _ ~ ! $ & ' ( ) * + , ; = : @`.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@".utf8.contains(byte)
        }
    }
}

extension MockAdminRoute {
    // MARK: Health and the outbox

    /// `GET /__mock/health`: whether the server is ready (open to every client).
    public static let health = MockAdminRoute("GET", "/__mock/health")
    /// `GET /__mock/sms`: every SMS sent, oldest first (`?phone=`, `?waitMs=`).
    public static let sms = MockAdminRoute("GET", "/__mock/sms")
    /// `GET /__mock/emails`: every e-mail sent, oldest first (`?to=`, `?waitMs=`).
    public static let emails = MockAdminRoute("GET", "/__mock/emails")
    /// `DELETE /__mock/sms`: empty the SMS part of the outbox.
    public static let clearSMS = MockAdminRoute("DELETE", "/__mock/sms")
    /// `DELETE /__mock/emails`: empty the e-mail part of the outbox.
    public static let clearEmails = MockAdminRoute("DELETE", "/__mock/emails")

    // MARK: Accounts, state, reset, instances

    /// `GET /__mock/accounts`: every system's accounts.
    public static let accounts = MockAdminRoute("GET", "/__mock/accounts")
    /// `POST /__mock/accounts`: create an account directly.
    public static let createAccount = MockAdminRoute("POST", "/__mock/accounts")
    /// `DELETE /__mock/accounts/:system/:id`: remove one account and end its sessions.
    public static let removeAccount = MockAdminRoute("DELETE", "/__mock/accounts/:system/:id")
    /// `GET /__mock/state`: the whole state as one document.
    public static let state = MockAdminRoute("GET", "/__mock/state")
    /// `PUT /__mock/state`: replace the whole state with a document from ``state``.
    public static let restoreState = MockAdminRoute("PUT", "/__mock/state")
    /// `POST /__mock/reset`: back to the seed (or to a given one).
    public static let reset = MockAdminRoute("POST", "/__mock/reset")
    /// `POST /__mock/instances`: start an isolated mock on a new port.
    public static let createInstance = MockAdminRoute("POST", "/__mock/instances")
    /// `GET /__mock/instances`: the running instances.
    public static let instances = MockAdminRoute("GET", "/__mock/instances")
    /// `DELETE /__mock/instances/:id`: stop an instance.
    public static let removeInstance = MockAdminRoute("DELETE", "/__mock/instances/:id")

    // MARK: Journal, faults, clock, tokens

    /// `GET /__mock/requests`: the request journal, oldest first.
    public static let requests = MockAdminRoute("GET", "/__mock/requests")
    /// `GET /__mock/requests/count`: how many journal entries match (`?atLeast=`, `?waitMs=`).
    public static let requestCount = MockAdminRoute("GET", "/__mock/requests/count")
    /// `DELETE /__mock/requests`: empty the journal.
    public static let clearRequests = MockAdminRoute("DELETE", "/__mock/requests")
    /// `POST /__admin/mappings/import-har`: a HAR 1.2 document's entries added as stubs.
    public static let importHAR = MockAdminRoute("POST", "/__admin/mappings/import-har")
    /// `GET /__mock/requests.har`: the journal as a HAR 1.2 document.
    public static let requestsHAR = MockAdminRoute("GET", "/__mock/requests.har")
    /// `POST /__mock/requests/:id/stub`: keep a journal entry's answer as a stub mapping.
    public static let keepAsStub = MockAdminRoute("POST", "/__mock/requests/:id/stub")
    /// `POST /__mock/faults`: add a fault rule.
    public static let addFault = MockAdminRoute("POST", "/__mock/faults")
    /// `GET /__mock/faults`: the active fault rules.
    public static let faults = MockAdminRoute("GET", "/__mock/faults")
    /// `DELETE /__mock/faults/:id`: remove one fault rule.
    public static let removeFault = MockAdminRoute("DELETE", "/__mock/faults/:id")
    /// `DELETE /__mock/faults`: remove every fault rule.
    public static let removeAllFaults = MockAdminRoute("DELETE", "/__mock/faults")
    /// `GET /__mock/clock`: the mock's clock.
    public static let clock = MockAdminRoute("GET", "/__mock/clock")
    /// `POST /__mock/clock`: move the clock forward.
    public static let advanceClock = MockAdminRoute("POST", "/__mock/clock")
    /// `DELETE /__mock/clock`: back to real time.
    public static let resetClock = MockAdminRoute("DELETE", "/__mock/clock")
    /// `POST /__mock/tokens/expire`: expire one token, a system's, or every system's.
    public static let expireTokens = MockAdminRoute("POST", "/__mock/tokens/expire")
    /// `POST /__mock/tokens/revoke`: revoke one token, a system's, or every system's.
    public static let revokeTokens = MockAdminRoute("POST", "/__mock/tokens/revoke")

    // MARK: Stubs (WireMock's /__admin)

    /// `POST /__admin/mappings`: add a stub mapping.
    public static let addStub = MockAdminRoute("POST", "/__admin/mappings")
    /// `POST /__admin/mappings/import`: add many stub mappings, all or none.
    public static let importStubs = MockAdminRoute("POST", "/__admin/mappings/import")
    /// `GET /__admin/mappings`: every stub mapping, newest first.
    public static let stubs = MockAdminRoute("GET", "/__admin/mappings")
    /// `DELETE /__admin/mappings/:id`: remove a stub mapping.
    public static let removeStub = MockAdminRoute("DELETE", "/__admin/mappings/:id")
    /// `DELETE /__admin/mappings`: remove every stub mapping.
    public static let removeAllStubs = MockAdminRoute("DELETE", "/__admin/mappings")
    /// `GET /__admin/mappings/refused`: the mappings the `--mappings` folder's last load refused.
    public static let refusedStubs = MockAdminRoute("GET", "/__admin/mappings/refused")
    /// `POST /__admin/mappings/save`: write the mappings changed over HTTP to the `--mappings` folder.
    public static let saveStubs = MockAdminRoute("POST", "/__admin/mappings/save")
    /// `GET /__admin/scenarios`: every stub scenario and its state.
    public static let stubScenarios = MockAdminRoute("GET", "/__admin/scenarios")
    /// `POST /__admin/scenarios/reset`: every stub scenario back to `Started`.
    public static let resetStubScenarios = MockAdminRoute("POST", "/__admin/scenarios/reset")
    /// `POST /__admin/requests/count`: how many journaled requests a request pattern matches.
    public static let countMatchingRequests = MockAdminRoute("POST", "/__admin/requests/count")
    /// `POST /__admin/requests/find`: the journaled requests a request pattern matches.
    public static let findMatchingRequests = MockAdminRoute("POST", "/__admin/requests/find")

    /// Every operation above, the ones the admin client calls.
    public static let all: [MockAdminRoute] = [
        health, sms, emails, clearSMS, clearEmails,
        accounts, createAccount, removeAccount, state, restoreState, reset, createInstance, instances, removeInstance,
        requests, requestCount, clearRequests, requestsHAR, keepAsStub, importHAR, addFault, faults, removeFault, removeAllFaults,
        clock, advanceClock, resetClock, expireTokens, revokeTokens,
        addStub, importStubs, stubs, removeStub, removeAllStubs, refusedStubs, saveStubs,
        stubScenarios, resetStubScenarios, countMatchingRequests, findMatchingRequests,
    ]
}
