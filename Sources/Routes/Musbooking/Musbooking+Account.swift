#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

extension Musbooking {
    /// `POST|GET api/auth/login`: a new token for the account; it ends the user's previous one.
    /// The login matches the account's login exactly, letter case aside (`UserLoginProvider`):
    /// the phone written another way is not a login. `HEAD` neither starts nor ends a session.
    func login(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let params = try parameters(request)
        guard let login = params.text("login") else { throw HTTPError(.badRequest, MusbookingText.noLogin) }
        let password = params.raw("password") ?? ""
        let token = environment.random.token()
        let expiresAt = environment.clock.now().addingTimeInterval(TimeInterval(seed.tokenLifetimeSeconds))
        func check(_ state: MusbookingState) throws(HTTPError) -> MusbookingUser {
            guard let user = state.account(login: login) else {
                throw HTTPError(.badRequest, MusbookingText.loginNotFound(login), hint: Musbooking.loginHint(login, in: state))
            }
            guard user.password == password else { throw HTTPError(.badRequest, MusbookingText.wrongPassword) }
            return user
        }
        let user: MusbookingUser
        if request.method == .head {
            user = try inspect { (state) throws(HTTPError) in try check(state) }
        } else {
            user = try transaction { (state) throws(HTTPError) in try check(state) } commit: { state, user in
                state.startSession(token, userId: user.id, expiresAt: expiresAt)
                return user
            }
        }
        return .json(.ok, ["key": .string(user.id), "token": .string(token)] as JSONValue)
    }

    /// When the unknown login is a phone of an account written another way: the login to use.
    private static func loginHint(_ login: String, in state: MusbookingState) -> String? {
        guard let phone = MusbookingRules.normalizedPhone(login), let account = state.account(phone: phone),
              let accountLogin = account.login else { return nil }
        guard accountLogin.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return "This phone is not a login; log in with the account's login (the one registration returned)."
        }
        return "The login is compared as written, not as a phone; log in with \"\(accountLogin)\"."
    }

    /// `GET api/users/user`: the signed-in user's profile.
    func profile(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let user = try inspect { (state) throws(HTTPError) in try authenticatedUser(request, in: state) }
        return .json(.ok, user.profileJSON)
    }

    /// `POST api/users/change`: stores the non-blank fields that were sent, as the original's
    /// `SetIf(!IsNullOrWhiteSpace…)`: an app posting its whole form with empty fields loses nothing.
    /// `phone` is never changed (the phone is the login).
    func change(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        // ASP.NET's [Authorize] runs before model binding: no token is 401 whatever the fields.
        _ = try inspect { (state) throws(HTTPError) in try authenticatedUser(request, in: state) }
        let params = try parameters(request)
        // Parse before the lock, validate against the state inside, change last.
        var birthday: MusbookingDate?
        if let text = params.text("birthday") {
            guard let date = MusbookingDate(parsing: text) else { throw HTTPError(.badRequest, MusbookingText.badBirthday(text)) }
            birthday = date
        }
        let email = params.text("email")
        if let email, !MusbookingRules.isEmail(email) { throw HTTPError(.badRequest, MusbookingText.badEmail(email)) }
        return try transaction { (state) throws(HTTPError) -> MusbookingUser in
            // Another account's e-mail is accepted: the original checks uniqueness only in `users/sms`.
            var user = try authenticatedUser(request, in: state)
            if let v = params.text("name", "firstName") { user.firstName = v }
            if let v = params.text("lastname", "lastName") { user.lastName = v }
            if let v = params.text("surname", "surName") { user.surName = v }
            if let v = params.text("fcm") { user.fcm = v }
            if let birthday { user.birthday = birthday }
            if let email {
                // The original resets confirmation on any e-mail it is given, even the same one.
                user.email = email
                user.isConfirmed = false
            }
            return user
        } commit: { state, user in
            state.update(user)
            return .empty(.ok)
        }
    }

    /// `POST api/users/restore`: a new password replaces the old one and is "sent" by SMS or e-mail.
    func restore(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let params = try parameters(request)
        let login = params.text("login"), email = params.text("mail", "email"), phone = params.text("phone")
        let bySMS = MusbookingRules.isTrue(params.text("sms"))
        guard login != nil || email != nil || phone != nil else { throw HTTPError(.badRequest, MusbookingText.noRestoreKey) }
        let password = generatePassword()
        let destination = try transaction { (state) throws(HTTPError) -> (MusbookingUser, String) in
            // The original looks for login, or mail, or phone: the first key that finds an account wins.
            let found = login.flatMap { state.account(login: $0) }
                ?? email.flatMap { state.account(email: $0) }
                ?? phone.flatMap(MusbookingRules.normalizedPhone).flatMap { state.account(phone: $0) }
            guard var user = found else {
                throw HTTPError(.badRequest, MusbookingText.restoreNotFound(login: login ?? "", email: email ?? "", phone: phone ?? ""))
            }
            let destination: String
            if bySMS {
                guard let userPhone = user.phone else { throw HTTPError(.badRequest, MusbookingText.noPhoneOnFile) }
                destination = userPhone
            } else {
                guard let userEmail = user.email else { throw HTTPError(.badRequest, MusbookingText.noEmailOnFile) }
                destination = userEmail
            }
            user.password = password
            return (user, destination)
        } commit: { state, change in
            state.update(change.0)
            return change.1
        }
        if bySMS {
            environment.outbox.sendSMS(to: destination, text: "Ваш новый пароль: \(password)", code: password)
            return .text(.ok, "Новый пароль отправлен по SMS на номер \(destination)")
        }
        environment.outbox.sendEmail(to: destination, subject: "Восстановление пароля",
                                     body: "Ваш новый пароль для входа в Musbooking: \(password)")
        return .text(.ok, "Новый пароль отправлен на почту \(destination)")
    }

    /// `POST api/users/send-confirm`: "sends" the confirmation link to the user's address.
    func sendConfirmation(_ request: HTTPRequest, _ context: RequestContext) throws(HTTPError) -> HTTPResponse {
        let host = Musbooking.linkHost(request.headers["Host"], localPort: context.localPort)
        let user = try inspect { (state) throws(HTTPError) in try authenticatedUser(request, in: state) }
        guard let email = user.email else { throw HTTPError(.badRequest, MusbookingText.noEmail) }
        let link = "http://\(host)/api/users/confirm?id=\(user.id)"
        environment.outbox.sendEmail(to: email, subject: "Подтверждение почты",
                                     body: "Чтобы подтвердить почту для Musbooking, откройте ссылку: \(link)", link: link)
        // The original answers the JSON string "ok".
        return .json(.ok, "ok" as JSONValue)
    }

    /// `GET api/users/confirm?id=`: the link from the e-mail, opened in a browser. `HEAD` (link
    /// previews, mail scanners) gets the same answer and changes nothing.
    func confirm(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let id = try parameters(request).text("id")
        func check(_ state: MusbookingState) throws(HTTPError) -> MusbookingUser {
            guard let id, let user = state.user(id: id) else { throw HTTPError(.badRequest, MusbookingText.userNotFound) }
            guard user.email != nil else { throw HTTPError(.badRequest, MusbookingText.noEmail) }
            return user
        }
        if request.method == .head {
            _ = try inspect { (state) throws(HTTPError) in try check(state) }
        } else {
            try transaction { (state) throws(HTTPError) in
                var user = try check(state)
                user.isConfirmed = true
                return user
            } commit: { state, user in
                state.update(user)
            }
        }
        return .text(.ok, MusbookingText.emailConfirmed)
    }

    /// `GET api/categories/:id`: the seed's category; auth required, as everywhere by default.
    func category(_ request: HTTPRequest, _ context: RequestContext) throws(HTTPError) -> HTTPResponse {
        let raw = context.pathParameters["id"] ?? ""
        return try inspect { (state) throws(HTTPError) -> HTTPResponse in
            _ = try authenticatedUser(request, in: state)
            guard let id = Int(raw) else { throw HTTPError(.badRequest, MusbookingText.badCategoryId(raw)) }
            guard let category = state.categories[id] else { throw HTTPError(.badRequest, MusbookingText.categoryNotFound(id)) }
            return .json(.ok, category.fields)
        }
    }

    /// The Host header for the confirmation link, if it looks like `host[:port]`; else loopback and
    /// the port the request came in on (8080 when it did not come over a socket).
    static func linkHost(_ header: String?, localPort: Int = 0) -> String {
        guard let host = header?.trimmingWhitespace(newlines: false), !host.isEmpty, host.utf8.count <= 255,
              HTTPRequest.isValidHost(host), !host.contains("@")
        else { return "127.0.0.1:\(localPort > 0 ? localPort : 8080)" }
        return host
    }
}
