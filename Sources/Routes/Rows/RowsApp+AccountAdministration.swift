import HTTPServer
import EmulationKit

extension RowsApp: AccountAdministration {
    package static var accountFields: String { "{email, password}" }
    package static var accountExample: OAS.Object { ["system": .string(name), "email": "tester@example.com", "password": "secret1"] }
    package static var accountFormFields: [AccountFormField] {
        [.init("email", "E-mail", .email, required: true, placeholder: "tester@example.com"),
         .init("password", "Password", .password, required: true)]
    }

    /// `{"email", "password"}`: a login the original's `/auth/login` accepts (the e-mail compared exactly).
    package func createAccount(_ fields: AccountFields) throws(AccountProblem) -> AccountSummary {
        var fields = fields
        guard let email = try fields.string("email", required: true), let password = try fields.string("password", required: true) else {
            throw .invalid("\"email\" and \"password\" are required")
        }
        try fields.checkAllRead()
        guard accounts.add(email, password) else { throw .exists("a rows account with e-mail \(email) exists") }
        tokens.keyChanges.changed()   // the state file keeps the accounts beside the key
        return AccountSummary(login: email, email: email, note: "tokens are signed and never expire")
    }

    /// By the e-mail (the listing's login).
    package func removeAccount(id: String) -> Bool {
        guard accounts.remove(id) else { return false }
        tokens.endSessions(of: id)   // signals the state writer too
        return true
    }
}
