#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

extension Musbooking {
    /// `POST api/users/sms`: a code for the phone, "sent" by SMS; a newer code replaces the older.
    /// The only place the original checks e-mail uniqueness: a phone or a given e-mail (any case)
    /// that already has an account is refused.
    func sendCode(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let params = try parameters(request)
        let phone = try requiredPhone(params)
        let email = params.text("email")
        let n = seed.smsCodeLength
        let lower = power10(n - 1) + 1, upper = power10(n) - 2
        let code = environment.fixedSMSCode ?? String(environment.random.int(in: lower...max(lower, upper)))
        let dropped = try transaction { (state) throws(HTTPError) in
            guard state.account(phone: phone) == nil, email.flatMap({ state.account(email: $0) }) == nil else {
                throw HTTPError(.badRequest, MusbookingText.phoneTaken)
            }
        } commit: { state, _ in
            state.codes.set(code, for: phone)
        }
        if let dropped {
            pendingCodeCap.bit("musbooking: too many pending SMS codes; dropped the oldest (to \(dropped))")
        }
        environment.outbox.sendSMS(to: phone, text: "Код подтверждения: \(code)", code: code)
        return .text(.ok, MusbookingText.codeSent)
    }

    /// `POST api/users/register`: creates the account, or attaches a login to the seed customer
    /// with that phone (whose data stays as it was, as the document says).
    func registerUser(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let params = try parameters(request)
        // Errors come in the original's order: name, phone, code, password, then taken login.
        guard let name = params.text("name", "firstName") else { throw HTTPError(.badRequest, MusbookingText.noName) }
        let phone = try requiredPhone(params)
        let code = params.text("code")
        let givenPassword = params.raw("password"), givenLogin = params.text("login")
        let email = params.text("email"), birthdayText = params.text("birthday")
        let login = givenLogin ?? phone
        let password = givenPassword ?? generatePassword()
        let newId = environment.random.token()

        let (id, linked) = try transaction { (state) throws(HTTPError) -> (customer: MusbookingUser?, birthday: MusbookingDate?) in
            guard let code, state.codes[phone] == code else { throw HTTPError(.badRequest, MusbookingText.badCode) }
            if let givenPassword, !MusbookingRules.isAcceptablePassword(givenPassword) {
                throw HTTPError(.badRequest, MusbookingText.weakPassword)
            }
            // Checks the contract does not order come after the ones it does, before the taken login.
            if let givenLogin, givenLogin.count < MusbookingRules.minimumLoginLength {
                throw HTTPError(.badRequest, MusbookingText.shortLogin)
            }
            if let email, !MusbookingRules.isEmail(email) { throw HTTPError(.badRequest, MusbookingText.badEmail(email)) }
            var birthday: MusbookingDate?
            if let birthdayText {
                guard let date = MusbookingDate(parsing: birthdayText) else {
                    throw HTTPError(.badRequest, MusbookingText.badBirthday(birthdayText))
                }
                birthday = date
            }
            guard state.account(phone: phone) == nil, state.account(login: login) == nil else {
                throw HTTPError(.badRequest, MusbookingText.loginTaken)
            }
            // E-mail uniqueness is checked only by `users/sms`, as the original does.
            let customer = state.customer(phone: phone)
            if customer == nil, state.accountCount >= accountCap.limit {
                accountCap.bit("musbooking: account cap reached; refused a registration")
                throw HTTPError(.serviceUnavailable, MusbookingText.tooManyAccounts,
                                hint: "The mock holds its maximum of \(accountCap.limit) musbooking accounts; reset it (POST /__mock/reset) or raise --max-musbooking-accounts.")
            }
            return (customer, birthday)
        } commit: { state, plan in
            // The code stays (the original never uses one up), so a repeated registration gets
            // the taken-login answer above.
            if var record = plan.customer {
                record.login = login
                record.password = password
                state.update(record)
                return (record.id, true)
            }
            state.insert(MusbookingUser(id: newId, login: login, password: password, phone: phone, firstName: name,
                                        lastName: params.text("lastname", "lastName"),
                                        surName: params.text("surname", "surName"),
                                        email: email, birthday: plan.birthday))
            return (newId, false)
        }
        environment.logger.info("musbooking: registered \(login) (\(id))\(linked ? ", linked to the customer record" : "")")
        if givenPassword == nil {
            environment.outbox.sendSMS(to: phone, text: "Ваш логин: \(login), пароль: \(password)", code: password)
        }
        return .json(.ok, ["login": .string(login), "password": .string(password)] as JSONValue)
    }

    /// The `phone` parameter normalised, or the 400 the original gives.
    func requiredPhone(_ params: ASPNetParameters) throws(HTTPError) -> String {
        guard let raw = params.text("phone") else { throw HTTPError(.badRequest, MusbookingText.noPhone) }
        guard let phone = MusbookingRules.normalizedPhone(raw) else { throw HTTPError(.badRequest, MusbookingText.badPhone(raw)) }
        return phone
    }

    private func power10(_ n: Int) -> Int {
        (0..<max(0, n)).reduce(1) { result, _ in result * 10 }
    }
}
