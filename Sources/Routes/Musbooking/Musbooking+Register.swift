import Foundation
import HTTPServer

extension Musbooking {
    /// `POST api/users/sms`: a code for the phone, "sent" by SMS; a newer code replaces the older.
    func sendCode(_ request: HTTPRequest) throws -> HTTPResponse {
        let params = try MusbookingParameters(request)
        let phone = try requiredPhone(params)
        let n = seed.smsCodeLength
        let lower = power10(n - 1) + 1, upper = power10(n) - 2
        try transaction { state in
            guard state.accountIndex(phone: phone) == nil else { throw MusbookingFailure.badRequest(MusbookingText.phoneTaken) }
            let code = String(environment.random.int(in: lower...max(lower, upper)))
            state.codes[phone] = code
            environment.outbox.sendSMS(to: phone, text: "Код подтверждения: \(code)", code: code)
        }
        return .text(.ok, MusbookingText.codeSent)
    }

    /// `POST api/users/register`: creates the account, or attaches a login to the seed customer
    /// with that phone (whose data stays as it was, as the document says).
    func registerUser(_ request: HTTPRequest) throws -> HTTPResponse {
        let params = try MusbookingParameters(request)
        // Errors come in the original's order: name, phone, code, password, then taken login.
        guard let name = params.text("name", "firstName") else { throw MusbookingFailure.badRequest(MusbookingText.noName) }
        let phone = try requiredPhone(params)
        let code = params.text("code")
        let givenPassword = params.raw("password"), givenLogin = params.text("login")
        let email = params.text("email"), birthdayText = params.text("birthday")
        let login = givenLogin ?? phone
        let password = givenPassword ?? generatePassword()
        let newId = environment.random.token()

        return try transaction { state in
            guard let code, state.codes[phone] == code else { throw MusbookingFailure.badRequest(MusbookingText.badCode) }
            if let givenPassword, !MusbookingRules.isAcceptablePassword(givenPassword) {
                throw MusbookingFailure.badRequest(MusbookingText.weakPassword)
            }
            // Checks the contract does not order come after the ones it does, before the taken login.
            if let givenLogin, givenLogin.count < MusbookingRules.minimumLoginLength {
                throw MusbookingFailure.badRequest(MusbookingText.shortLogin)
            }
            if let email, !MusbookingRules.isEmail(email) { throw MusbookingFailure.badRequest(MusbookingText.badEmail(email)) }
            var birthday: MusbookingDate?
            if let birthdayText {
                guard let date = MusbookingDate(parsing: birthdayText) else {
                    throw MusbookingFailure.badRequest(MusbookingText.badBirthday(birthdayText))
                }
                birthday = date
            }
            guard state.accountIndex(phone: phone) == nil, state.accountIndex(login: login) == nil else {
                throw MusbookingFailure.badRequest(MusbookingText.loginTaken)
            }
            let customer = state.users.firstIndex { !$0.isAccount && $0.phone == phone }
            if customer == nil, let email, state.accountIndex(email: email) != nil {
                throw MusbookingFailure.badRequest(MusbookingText.phoneTaken)
            }
            // Validated: from here on nothing can fail.
            let id: String
            if let customer {
                state.users[customer].login = login
                state.users[customer].password = password
                id = state.users[customer].id
            } else {
                id = newId
                state.users.append(MusbookingUser(id: id, login: login, password: password, phone: phone, firstName: name,
                                                  lastName: params.text("lastname", "lastName"),
                                                  surName: params.text("surname", "surName"),
                                                  email: email, birthday: birthday))
            }
            state.codes[phone] = nil
            environment.logger.info("musbooking: registered \(login) (\(id))\(customer == nil ? "" : ", linked to the customer record")")
            if givenPassword == nil {
                environment.outbox.sendSMS(to: phone, text: "Ваш логин: \(login), пароль: \(password)", code: password)
            }
            return .json(.ok, object: ["login": login, "password": password])
        }
    }

    /// The `phone` parameter normalised, or the 400 the original gives.
    func requiredPhone(_ params: MusbookingParameters) throws -> String {
        guard let raw = params.text("phone") else { throw MusbookingFailure.badRequest(MusbookingText.noPhone) }
        guard let phone = MusbookingRules.normalizedPhone(raw) else { throw MusbookingFailure.badRequest(MusbookingText.badPhone(raw)) }
        return phone
    }

    private func power10(_ n: Int) -> Int {
        (0..<max(0, n)).reduce(1) { result, _ in result * 10 }
    }
}
