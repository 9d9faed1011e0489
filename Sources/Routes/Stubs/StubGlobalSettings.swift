import HTTPServer

/// WireMock's global settings (`PUT /__admin/settings`): a delay for every stub answer whose
/// mapping gives none of its own (WireMock's `Response.Builder.configureDelay`: the mapping's
/// `fixedDelayMilliseconds` replaces `fixedDelay`, its `delayDistribution` replaces the global
/// one, and the fixed and random parts add up), and `extended`, kept and returned as given.
/// `POST /__admin/reset` keeps them, as WireMock does; `POST /__mock/reset` clears them.
struct StubGlobalSettings: Sendable {
    var fixedDelay: Int?
    var distribution: StubResponse.Delay = .none
    /// The distribution as `GET /__admin/settings` shows it.
    var distributionJSON: JSONValue?
    /// Free-form settings for extensions: nothing here reads them.
    var extended: JSONValue?

    static let fields = ["fixedDelay", "delayDistribution", "extended"]

    var hasDelay: Bool {
        if case .none = distribution { return fixedDelay != nil }
        return true
    }

    /// `{"settings": {...}}` with the fields that are set, as WireMock writes them.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let fixedDelay { members.append((key: "fixedDelay", value: .number(Double(fixedDelay)))) }
        if let distributionJSON { members.append((key: "delayDistribution", value: distributionJSON)) }
        if let extended { members.append((key: "extended", value: extended)) }
        return ["settings": .object(members)]
    }

    /// A `PUT`/`POST /__admin/settings` body: the settings, or `{"settings": {...}}` (what GET
    /// answers), which WireMock takes too. Unknown fields are refused, naming them.
    static func decode(_ value: JSONValue) throws(StubProblem) -> StubGlobalSettings {
        let top = try StrictObject(value, at: "", what: "the settings")
        if top.keys == ["settings"] {
            return try decode(top["settings"] ?? .object([]), at: "/settings")
        }
        return try decode(value, at: "")
    }

    private static func decode(_ value: JSONValue, at pointer: String) throws(StubProblem) -> StubGlobalSettings {
        let object = try StrictObject(value, at: pointer, what: "\"settings\"")
        try object.allow(fields, unsupported: [
            "proxyPassThrough": "proxyPassThrough is WireMock 3's global setting and is not supported",
        ])
        var settings = StubGlobalSettings()
        settings.fixedDelay = try object.int("fixedDelay", in: 0...StubResponse.maxDelayMs)
        if let d = object["delayDistribution"] {
            (settings.distribution, settings.distributionJSON) = try StubResponse.decodeDistribution(d, at: pointer + "/delayDistribution")
        }
        if let extended = object["extended"] {
            guard extended.isObject else { throw StubProblem(pointer + "/extended", "\"extended\" must be a JSON object") }
            settings.extended = extended
        }
        return settings
    }

    /// `PATCH /__admin/settings/extended`'s `{"extended": {...}}`: its members replace or join
    /// the kept ones, one level deep (WireMock's `Parameters.merge`).
    func mergingExtended(_ body: JSONValue) throws(StubProblem) -> StubGlobalSettings {
        let object = try StrictObject(body, at: "", what: "the body")
        try object.allow(["extended"])
        guard let patch = object["extended"] else { return self }
        guard patch.isObject else { throw StubProblem("/extended", "\"extended\" must be a JSON object") }
        var merged = extended ?? .object([])
        for member in patch.stubMembers { merged = merged.stubSetting(member.key, member.value) }
        var copy = self
        copy.extended = merged
        return copy
    }
}

extension StubStore {
    /// Changes the global settings in one step (a refused change leaves them as they were).
    func updateGlobalSettings(_ change: (inout StubGlobalSettings) throws(StubProblem) -> Void) throws(StubProblem) {
        try globalSettings.withLock { (settings: inout StubGlobalSettings) throws(StubProblem) in
            var changed = settings
            try change(&changed)
            settings = changed
            globalDelay.set(changed.hasDelay)
        }
    }

    /// `POST /__mock/reset`: no global settings (a test's delay ends with the test, as its stubs do).
    package func clearGlobalSettings() {
        globalSettings.withLock { settings in
            settings = StubGlobalSettings()
            globalDelay.set(false)
        }
    }
}
