import HTTPServer

/// What the control plane needs of the stub mappings, handed in by the composition root (which
/// holds the store): the plane does not import the stubs, it learns their admin prefix and how to
/// reach the store from this value.
package struct StubControls: Sendable {
    /// The stubs' admin API's path prefix (`/__admin`), owned with `/__mock` by the admin guard;
    /// nil when no stubs are wired (the guard owns `/__mock` alone).
    package var adminPrefix: String?
    /// Hands the store the rule "a system owns this path" (stubs elsewhere cost the systems nothing).
    package var setSystemPaths: @Sendable (@escaping @Sendable (String) -> Bool) -> Void
    /// Sets who hears each change to the mappings, with its log line made only when read (a quiet
    /// log with no event subscriber never builds the line of a 10,000-mapping import).
    package var observeChanges: @Sendable (@escaping @Sendable (_ summary: () -> String) -> Void) -> Void
    /// Sets who hears a matcher's warnings (a body given up on at its step budget).
    package var observeWarnings: @Sendable (@escaping @Sendable (String) -> Void) -> Void
    /// What `POST /__mock/reset` does to the stubs: those added over HTTP go, the folder's stay.
    package var reset: @Sendable () -> Void
    /// Empties the proxied exchanges a recorder's snapshot reads, when the journal is cleared.
    package var clearRecordedExchanges: @Sendable () -> Void = {}
    /// Turns an answer the journal kept into a stub mapping, added as `POST /__admin/mappings`
    /// adds one (`POST /__mock/requests/{id}/stub`), and answers with it: 201 and the mapping,
    /// or the stubs' refusal. Nil when no stubs are wired.
    package var keep: (@Sendable (KeptAnswer) -> HTTPResponse)?

    /// A journaled exchange as a stub replays it: the request's method and target, the answer's
    /// status, fields and whole body.
    package struct KeptAnswer: Sendable {
        package var method: String
        /// The path and query as the request sent them (`/rows/1?x=y`).
        package var url: String
        package var status: Int
        package var headers: HTTPHeaders
        package var body: [UInt8]

        package init(method: String, url: String, status: Int, headers: HTTPHeaders, body: [UInt8]) {
            self.method = method
            self.url = url
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    package init(adminPrefix: String?, setSystemPaths: @escaping @Sendable (@escaping @Sendable (String) -> Bool) -> Void,
                 observeChanges: @escaping @Sendable (@escaping @Sendable (_ summary: () -> String) -> Void) -> Void,
                 observeWarnings: @escaping @Sendable (@escaping @Sendable (String) -> Void) -> Void,
                 reset: @escaping @Sendable () -> Void) {
        self.adminPrefix = adminPrefix
        self.setSystemPaths = setSystemPaths
        self.observeChanges = observeChanges
        self.observeWarnings = observeWarnings
        self.reset = reset
    }

    /// No stubs: a control plane built alone (a unit test of its clock or tokens).
    package static let none = StubControls(adminPrefix: nil, setSystemPaths: { _ in }, observeChanges: { _ in },
                                           observeWarnings: { _ in }, reset: {})
}
