import HTTPServer

/// The options of `POST /__admin/recordings/start` and `/snapshot` (WireMock 2.35's `RecordSpec`),
/// with its defaults: persisted, repeats as scenarios, bodies inline up to 10,240 characters of
/// text (binary: any size) only when `extractBodyCriteria` is given.
struct RecordSpec: Sendable {
    /// `targetBaseUrl` (start only; a snapshot takes what was proxied from anywhere).
    var target: Upstream?
    /// `filters` without `ids`: which proxied exchanges become mappings.
    var filter: RequestPattern?
    /// `captureHeaders`: each named field becomes an `equalTo` (caseInsensitive when asked).
    var captureHeaders: [(name: String, caseInsensitive: Bool)] = []
    var bodyPattern = RecordBodyPattern()
    /// `extractBodyCriteria`: bodies larger than these go to `__files`.
    var extract: (text: Int, binary: Int)?
    var persist = true
    var repeatsAsScenarios = true
    /// `outputFormat: "IDS"`: the answer lists the new mappings' ids only.
    var idsOnly = false
    /// A body that is UTF-8 is `body` whatever its `Content-Type` (a journal entry kept as a
    /// stub); WireMock's recorder writes `base64Body` unless the type names text.
    var textWhenUTF8 = false

    static let known = ["targetBaseUrl", "filters", "captureHeaders", "requestBodyPattern", "extractBodyCriteria", "outputFormat",
                        "persist", "repeatsAsScenarios", "transformers", "transformerParameters"]

    static func decode(_ value: JSONValue, requireTarget: Bool) throws(StubProblem) -> RecordSpec {
        let object = try StrictObject(value, at: "", what: "a record spec")
        try object.allow(known)
        var spec = RecordSpec()
        if let base = try object.string("targetBaseUrl") {
            let upstream: Upstream
            do throws(Upstream.Invalid) { upstream = try Upstream(baseURL: base) } catch { throw StubProblem("/targetBaseUrl", error.reason) }
            spec.target = upstream
        } else if requireTarget {
            throw StubProblem("/targetBaseUrl", "targetBaseUrl is required")
        }
        if let filters = object["filters"] {
            let f = try StrictObject(filters, at: "/filters", what: "\"filters\"")
            if let allow = try f.bool("allowNonProxied"), allow {
                throw StubProblem("/filters/allowNonProxied", "only proxied requests are recorded here: the journal keeps no full bodies of the others")
            }
            if f["ids"] != nil {
                throw StubProblem("/filters/ids", "filtering by serve event id is not implemented: proxied exchanges are not linked to the journal's ids here; filter with a request pattern")
            }
            var rest = filters
            for key in ["ids", "allowNonProxied"] { rest = rest.stubRemoving(key) }
            if !rest.stubMembers.isEmpty { spec.filter = try RequestPattern.decode(rest, at: "/filters") }
        }
        for (name, how) in try object.map("captureHeaders", { name, value, at throws(StubProblem) -> Bool in
            if !HTTPHeaderName.isValid(name) { throw StubProblem(at, "\"\(name)\" is not a valid header name") }
            let o = try StrictObject(value, at: at, what: "a captured header")
            try o.allow(["caseInsensitive"])
            return try o.bool("caseInsensitive") ?? false
        }) {
            spec.captureHeaders.append((name, how))
        }
        if let pattern = object["requestBodyPattern"] { spec.bodyPattern = try RecordBodyPattern.decode(pattern) }
        if let criteria = object["extractBodyCriteria"] {
            let c = try StrictObject(criteria, at: "/extractBodyCriteria", what: "\"extractBodyCriteria\"")
            try c.allow(["textSizeThreshold", "binarySizeThreshold"])
            spec.extract = (try size(c, "textSizeThreshold") ?? 10_240, try size(c, "binarySizeThreshold") ?? 0)
        }
        if let format = try object.string("outputFormat") {
            switch format.uppercased() {
            case "FULL": spec.idsOnly = false
            case "IDS": spec.idsOnly = true
            default: throw StubProblem("/outputFormat", "\"outputFormat\" is FULL or IDS")
            }
        }
        spec.persist = try flag(object, "persist") ?? true
        spec.repeatsAsScenarios = try flag(object, "repeatsAsScenarios") ?? true
        if let transformers = object["transformers"], transformers != .array([]) {
            throw StubProblem("/transformers", "recording transformers (WireMock extensions) are not implemented")
        }
        if let parameters = object["transformerParameters"], parameters != .object([]) {
            throw StubProblem("/transformerParameters", "recording transformers (WireMock extensions) are not implemented")
        }
        return spec
    }

    /// A boolean, or `"true"`/`"false"` as Jackson coerces them (WireMock's own tests send `"persist": "false"`).
    private static func flag(_ object: StrictObject, _ key: String) throws(StubProblem) -> Bool? {
        switch object[key] {
        case nil: return nil
        case .bool(let b)?: return b
        case .string(let s)? where s == "true" || s == "false": return s == "true"
        default: throw StubProblem("/" + key, "\"\(key)\" must be true or false")
        }
    }

    /// A threshold: a number or a string of digits, as WireMock's deserialiser takes both (`"1 kb"` forms are refused).
    private static func size(_ object: StrictObject, _ key: String) throws(StubProblem) -> Int? {
        switch object[key] {
        case nil: return nil
        case .number(let d)? where d >= 0 && d.rounded() == d && d < 1e15: return Int(d)
        case .string(let s)? where Int(s).map({ $0 >= 0 }) == true: return Int(s)
        default: throw StubProblem("/extractBodyCriteria/" + key, "\"\(key)\" must be a whole number of bytes")
        }
    }
}

/// `requestBodyPattern`: how a recorded request's body becomes its matcher.
struct RecordBodyPattern: Sendable {
    enum Kind: Sendable { case auto, equalTo, equalToJson, equalToXml }
    var kind = Kind.auto
    var ignoreArrayOrder = true
    var ignoreExtraElements = true
    var caseInsensitive = false

    static func decode(_ value: JSONValue) throws(StubProblem) -> RecordBodyPattern {
        let o = try StrictObject(value, at: "/requestBodyPattern", what: "\"requestBodyPattern\"")
        try o.allow(["matcher", "ignoreArrayOrder", "ignoreExtraElements", "caseInsensitive"])
        var p = RecordBodyPattern()
        switch try o.string("matcher") ?? "auto" {
        case "auto": p.kind = .auto
        case "equalTo": p.kind = .equalTo
        case "equalToJson": p.kind = .equalToJson
        case "equalToXml": p.kind = .equalToXml
        case let other: throw StubProblem("/requestBodyPattern/matcher", "unknown matcher \"\(other)\" (auto, equalTo, equalToJson, equalToXml)")
        }
        p.ignoreArrayOrder = try o.bool("ignoreArrayOrder") ?? true
        p.ignoreExtraElements = try o.bool("ignoreExtraElements") ?? true
        p.caseInsensitive = try o.bool("caseInsensitive") ?? false
        return p
    }
}

extension JSONValue {
    /// This object without `key`.
    func stubRemoving(_ key: String) -> JSONValue { .object(stubMembers.filter { $0.key != key }) }
}
