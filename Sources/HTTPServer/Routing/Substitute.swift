/// What a stage put in the route's place, or around its answer, as a typed value the later
/// stages and the transport read instead of strings and headers: a stub mapping that answered,
/// a fault rule that fired. A reference (one word in the context; nil, the usual case, costs a
/// load), made only when a stage acts.
@usableFromInline package final class Substitute: Sendable {
    /// Which kind of stage acted.
    package enum Kind: Sendable, Equatable {
        /// A stub mapping answered instead of the route.
        case stub
        /// A fault rule fired (its answer replaced the route's, or changed how it is delivered).
        case fault
    }

    package let kind: Kind
    /// The mapping's or the rule's id, as text.
    package let id: String
    /// The mapping's name; nil when it has none (and for a fault).
    package let name: String?
    /// The log line's system column while this answers (`stubs/<name>`: a JSON line writes the
    /// part before the first `/` as `system` and the rest as `stub`); nil: the path's owner.
    package let logName: String?
    /// What the stage that acted keeps of it for the stages around it (a fault's rule), opaque here.
    package let detail: (any Sendable)?
    /// The substitute recorded before this one on the same exchange (the fault that fired ahead of
    /// the stub that answered).
    package let previous: Substitute?

    package init(_ kind: Kind, id: String, name: String? = nil, logName: String? = nil, detail: (any Sendable)? = nil,
                 previous: Substitute? = nil) {
        self.kind = kind
        self.id = id
        self.name = name
        self.logName = logName
        self.detail = detail
        self.previous = previous
    }

    /// The latest substitute of `kind` in the chain that ends with this one.
    package func latest(_ kind: Kind) -> Substitute? {
        var current: Substitute? = self
        while let s = current {
            if s.kind == kind { return s }
            current = s.previous
        }
        return nil
    }

    /// The log line's system column: the latest substitute's that names one, else nil.
    var logSystem: String? {
        var current: Substitute? = self
        while let s = current {
            if let name = s.logName { return name }
            current = s.previous
        }
        return nil
    }
}
