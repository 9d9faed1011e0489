import HTTPServer
import EmulationKit

extension CustomerGateway: AccountAdministration {
    package static var accountFields: String { "{email, password}" }
    package static var accountExample: OAS.Object { ["system": .string(name), "email": "customer@example.com", "password": "secret1"] }
    package static var accountFormFields: [AccountFormField] {
        [.init("email", "E-mail", .email, required: true, placeholder: "customer@example.com"),
         .init("password", "Password", .password, required: true)]
    }

    /// `{"email", "password"}`: a customer `LOGIN_CUSTOMER` accepts, with a fresh customer id.
    package func createAccount(_ fields: AccountFields) throws(AccountProblem) -> AccountSummary {
        var fields = fields
        guard let email = try fields.string("email", required: true), let password = try fields.string("password", required: true) else {
            throw .invalid("\"email\" and \"password\" are required")
        }
        try fields.checkAllRead()
        guard EmailAddress.isValid(email) else { throw .invalid("\"email\" must be an e-mail address, as LOGIN_CUSTOMER requires") }
        let account = CustomerGatewaySeed.Account(customerId: environment.random.token(), email: email, password: password)
        guard accounts.add(email.lowercased(), account) else { throw .exists("a gateway customer with e-mail \(email) exists") }
        tokens.keyChanges.changed()   // the state file keeps the accounts beside the key
        return AccountSummary(id: account.customerId, login: email, email: email)
    }

    /// By the customer id the listing shows.
    package func removeAccount(id: String) -> Bool {
        guard let key = accounts.all.first(where: { $0.value.customerId == id })?.key else { return false }
        guard accounts.remove(key) else { return false }
        tokens.endSessions(of: key)   // signals the state writer too
        return true
    }
}
