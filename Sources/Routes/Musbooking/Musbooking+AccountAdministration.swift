import HTTPServer
import EmulationKit

extension Musbooking: AccountAdministration {
    package static let accountFields = "{phone, password, login?, name?, lastName?, surName?, email?, isConfirmed?, birthday?}"
    package static var accountExample: OAS.Object { ["system": .string(name), "phone": "+7 912 345-67-89", "password": "pass123", "email": "ivan@example.ru", "isConfirmed": true] }
    package static var accountFormFields: [AccountFormField] {
        [.init("phone", "Phone", .tel, required: true, placeholder: "+7 912 345-67-89"),
         .init("password", "Password", .password, required: true),
         .init("login", "Login", placeholder: "the phone"), .init("name", "First name"), .init("lastName", "Last name"),
         .init("surName", "Patronymic"), .init("email", "E-mail", .email, placeholder: "ivan@example.ru"),
         .init("birthday", "Birthday", placeholder: "17.05.1990"), .init("isConfirmed", "Confirmed", .flag)]
    }

    /// `{"phone", "password", "login"?, "name"?, "lastName"?, "surName"?, "email"?, "isConfirmed"?,
    /// "birthday"?}`: the rules of `users/register` without the SMS code; a customer record on
    /// the phone gets the login attached (and keeps its data, apart from what is given), as registration does.
    package func createAccount(_ fields: AccountFields) throws(AccountProblem) -> AccountSummary {
        var fields = fields
        guard let rawPhone = try fields.string("phone", required: true) else { throw .invalid("\"phone\" is required") }
        guard let phone = MusbookingRules.normalizedPhone(rawPhone) else {
            throw .invalid("\"phone\": \(MusbookingText.badPhone(rawPhone))")
        }
        guard let password = try fields.string("password", required: true) else { throw .invalid("\"password\" is required") }
        guard MusbookingRules.isAcceptablePassword(password) else { throw .invalid("\"password\": \(MusbookingText.weakPassword)") }
        let login = try fields.string("login") ?? phone
        guard login.count >= MusbookingRules.minimumLoginLength else { throw .invalid("\"login\": \(MusbookingText.shortLogin)") }
        let name = try fields.string("name"), lastName = try fields.string("lastName"), surName = try fields.string("surName")
        let email = try fields.string("email")
        if let email, !MusbookingRules.isEmail(email) { throw .invalid("\"email\": \(MusbookingText.badEmail(email))") }
        let isConfirmed = try fields.bool("isConfirmed") ?? false
        if isConfirmed && email == nil { throw .invalid("\"isConfirmed\": true needs an \"email\" to be confirmed") }
        var birthday: MusbookingDate?
        if let text = try fields.string("birthday") {
            guard let date = MusbookingDate(parsing: text) else { throw .invalid("\"birthday\": \(MusbookingText.badBirthday(text))") }
            birthday = date
        }
        try fields.checkAllRead()
        let newId = environment.random.token()
        let user = try state.withLock { (state) throws(AccountProblem) -> MusbookingUser in
            if state.account(phone: phone) != nil { throw .exists("a musbooking account with phone \(phone) exists") }
            if state.account(login: login) != nil { throw .exists("a musbooking account with login \(login) exists") }
            let customer = state.customer(phone: phone)
            if customer == nil, state.accountCount >= accountCap.limit {
                throw .full("the mock holds its maximum of \(accountCap.limit) musbooking accounts (--max-musbooking-accounts)")
            }
            var user = customer ?? MusbookingUser(id: newId, login: login, password: password, phone: phone, firstName: name ?? login,
                                                  lastName: nil, surName: nil, email: nil, birthday: nil)
            user.login = login
            user.password = password
            if let name { user.firstName = name }
            if let lastName { user.lastName = lastName }
            if let surName { user.surName = surName }
            if let email { user.email = email }
            if let birthday { user.birthday = birthday }
            user.isConfirmed = isConfirmed
            if customer == nil { state.insert(user) } else { state.update(user) }
            return user
        }
        return Musbooking.summary(of: user, sessions: [])
    }

    package func removeAccount(id: String) -> Bool {
        state.withLock { state in state.remove(id: id) }
    }

    /// A user as the accounts listing shows it.
    static func summary(of user: MusbookingUser, sessions: [AccountSummary.Session]) -> AccountSummary {
        let name = [user.firstName, user.lastName, user.surName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return AccountSummary(id: user.id, login: user.login, email: user.email, phone: user.phone,
                              name: name.isEmpty ? nil : name, isConfirmed: user.isConfirmed, sessions: sessions,
                              note: user.isAccount ? nil : "customer record without an account (registering this phone attaches one)")
    }
}
