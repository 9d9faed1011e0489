/// Who owns a request's path, decided once by the router from the matched route's group (else
/// the first group whose prefixes hold the path): the group's index and name, and its role, so a
/// stage skips the admin paths by a bit rather than by comparing names.
@usableFromInline package struct RouteOwner: Sendable, Equatable {
    /// What a route group is for.
    @usableFromInline package enum Role: Sendable, Equatable {
        /// An emulated system's routes: faulted, stubbed and journaled.
        case system
        /// The mock's own admin routes: neither faulted nor stubbed nor journaled.
        case admin
    }

    /// The group's index in its router (the order groups were added).
    package let group: Int
    /// The group's name (`RouteGroup.system`): what the log line and the journal show.
    package let name: String
    @usableFromInline package let role: Role

    package init(group: Int, name: String, role: Role) {
        self.group = group
        self.name = name
        self.role = role
    }

    /// Whether the path is one of the mock's own admin paths.
    @inlinable package var isAdmin: Bool { role == .admin }
}
