import HTTPServer

/// A system whose accounts a test creates and removes directly, in the state it needs, without
/// the app's flow (docs/control-plane.md, "Arrange, isolate, verify", `POST /__mock/accounts`, `DELETE /__mock/accounts/<system>/<id>`).
package protocol AccountAdministration: EmulatedSystem {
    /// Creates one account from the posted fields (checked as the system's own sign-up checks
    /// them) and returns it as `GET /__mock/accounts` lists it.
    func createAccount(_ fields: AccountFields) throws(AccountProblem) -> AccountSummary
    /// Removes one account by the id the listing shows and ends its sessions; false if none.
    func removeAccount(id: String) -> Bool
    /// The fields `createAccount` reads, as the OpenAPI description lists them.
    static var accountFields: String { get }
    /// A body `POST /__mock/accounts` accepts, for the OpenAPI example.
    static var accountExample: OAS.Object { get }
    /// The fields the console's account form asks for, in its order.
    static var accountFormFields: [AccountFormField] { get }
}

/// Why an account was not created: 400 (a bad field, named), 409 (it exists) or 503 (a cap).
package enum AccountProblem: Error, CustomStringConvertible {
    case invalid(String)
    case exists(String)
    case full(String)

    package var description: String {
        switch self {
        case .invalid(let text), .exists(let text), .full(let text): return text
        }
    }
}

/// The posted account object, read field by field: each read names the field when it is of
/// the wrong type, and fields nobody read are refused at the end (a typo is not silently dropped).
package struct AccountFields {
    private let members: [(key: String, value: JSONValue)]
    private var read: Set<String> = ["system"]

    package init(_ members: [(key: String, value: JSONValue)]) { self.members = members }

    private func value(_ name: String) -> JSONValue? {
        members.first { $0.key == name }?.value
    }

    /// A string field; absent or `null` is nil; an empty string is refused when `required`.
    package mutating func string(_ name: String, required: Bool = false) throws(AccountProblem) -> String? {
        read.insert(name)
        switch value(name) {
        case nil, .null?:
            if required { throw .invalid("\"\(name)\" is required") }
            return nil
        case .string(let text)?:
            if required && text.isEmpty { throw .invalid("\"\(name)\" must not be empty") }
            return text
        default: throw .invalid("\"\(name)\" must be a string")
        }
    }

    package mutating func bool(_ name: String) throws(AccountProblem) -> Bool? {
        read.insert(name)
        switch value(name) {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw .invalid("\"\(name)\" must be true or false")
        }
    }

    /// Refuses a field no read asked for.
    package func checkAllRead() throws(AccountProblem) {
        if let extra = members.first(where: { !read.contains($0.key) }) {
            throw .invalid("unknown field \"\(extra.key)\" (fields: \(read.subtracting(["system"]).sorted().joined(separator: ", ")))")
        }
    }
}
