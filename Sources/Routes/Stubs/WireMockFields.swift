/// The fields one of WireMock 2.35's mapping classes reads, so a field this server does not know
/// is refused in Jackson's words when WireMock would refuse it too (its clients parse the 422).
struct WireMockFields: Sendable {
    let className: String
    let fields: [String]

    /// Jackson's refusal of `field`, or nil when WireMock reads that field (and only this server refuses it).
    func unrecognized(_ field: String) -> String? {
        guard !fields.contains(field) else { return nil }
        return "Unrecognized field \"\(field)\" (class \(className)), not marked as ignorable"
    }

    static let stubMapping = WireMockFields(
        className: "com.github.tomakehurst.wiremock.stubbing.StubMapping",
        fields: ["id", "uuid", "name", "persistent", "request", "newRequest", "response", "priority", "scenarioName",
                 "requiredScenarioState", "newScenarioState", "postServeActions", "metadata", "insertionIndex", "$schema"])
    static let requestPattern = WireMockFields(
        className: "com.github.tomakehurst.wiremock.matching.RequestPattern",
        fields: ["url", "urlPattern", "urlPath", "urlPathPattern", "method", "headers", "queryParameters", "cookies", "basicAuth",
                 "basicAuthCredentials", "bodyPatterns", "customMatcher", "multipartPatterns", "scheme", "host", "port"])
    static let responseDefinition = WireMockFields(
        className: "com.github.tomakehurst.wiremock.http.ResponseDefinition",
        fields: ["status", "statusMessage", "body", "jsonBody", "base64Body", "bodyFileName", "headers", "additionalProxyRequestHeaders",
                 "fixedDelayMilliseconds", "delayDistribution", "chunkedDribbleDelay", "proxyBaseUrl", "proxyUrlPrefixToRemove", "fault",
                 "transformers", "transformerParameters", "fromConfiguredStub"])
}
