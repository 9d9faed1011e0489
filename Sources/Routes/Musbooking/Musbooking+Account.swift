import Foundation
import HTTPServer

extension Musbooking {
    /// `POST|GET api/auth/login`: a new token for the account; it ends the user's previous one.
    func login(_ request: HTTPRequest) throws -> HTTPResponse {
        let params = try MusbookingParameters(request)
        guard let login = params.text("login") else { throw MusbookingFailure.badRequest(MusbookingText.noLogin) }
        let password = params.raw("password") ?? ""
        let token = environment.random.token()
        let expiresAt = environment.clock.now().addingTimeInterval(TimeInterval(seed.tokenLifetimeSeconds))
        return try transaction { state in
            guard let index = state.accountIndex(login: login) else {
                throw MusbookingFailure.badRequest(MusbookingText.loginNotFound(login))
            }
            let user = state.users[index]
            guard user.password == password else { throw MusbookingFailure.badRequest(MusbookingText.wrongPassword) }
            // One session per user: the document's "token lives one session".
            state.sessions = state.sessions.filter { $0.value.userId != user.id }
            state.sessions[token] = MusbookingState.Session(userId: user.id, expiresAt: expiresAt)
            return .json(.ok, object: ["key": user.id, "token": token])
        }
    }

    /// `GET api/users/user`: the signed-in user's profile.
    func profile(_ request: HTTPRequest) throws -> HTTPResponse {
        try transaction { state in
            let index = try authenticatedIndex(request, in: state)
            return .json(.ok, object: state.users[index].profileJSON)
        }
    }

    /// `POST api/users/change`: stores whichever fields were sent; a blank value clears the field.
    /// `phone` is ignored, as in the original (the phone is the login).
    func change(_ request: HTTPRequest) throws -> HTTPResponse {
        let params = try MusbookingParameters(request)
        return try transaction { state in
            let index = try authenticatedIndex(request, in: state)
            var user = state.users[index]
            func blankIsNil(_ s: String) -> String? { s.isEmpty ? nil : s }
            if let v = params.present("name", "firstName") { user.firstName = blankIsNil(v) }
            if let v = params.present("lastname") { user.lastName = blankIsNil(v) }
            if let v = params.present("surname") { user.surName = blankIsNil(v) }
            if let v = params.present("fcm") { user.fcm = blankIsNil(v) }
            if let v = params.present("birthday") {
                if v.isEmpty {
                    user.birthday = nil
                } else {
                    guard let date = MusbookingDate(parsing: v) else { throw MusbookingFailure.badRequest(MusbookingText.badBirthday(v)) }
                    user.birthday = date
                }
            }
            if let v = params.present("email") {
                if !v.isEmpty {
                    guard MusbookingRules.isEmail(v) else { throw MusbookingFailure.badRequest(MusbookingText.badEmail(v)) }
                    guard state.accountIndex(email: v, except: index) == nil else {
                        throw MusbookingFailure.badRequest(MusbookingText.phoneTaken)
                    }
                }
                // Only a different address needs confirming again; a change of letter case does not.
                if user.email?.lowercased() != v.lowercased() { user.isConfirmed = false }
                user.email = blankIsNil(v)
            }
            state.users[index] = user
            return .empty(.ok)
        }
    }

    /// `POST api/users/restore`: a new password replaces the old one and is "sent" by SMS or e-mail.
    func restore(_ request: HTTPRequest) throws -> HTTPResponse {
        let params = try MusbookingParameters(request)
        let login = params.text("login"), email = params.text("mail", "email"), phone = params.text("phone")
        let bySMS = MusbookingRules.isTrue(params.text("sms"))
        guard login != nil || email != nil || phone != nil else { throw MusbookingFailure.badRequest(MusbookingText.noRestoreKey) }
        let password = generatePassword()
        return try transaction { state in
            // The original looks for login, or mail, or phone: the first key that finds an account wins.
            let found = login.flatMap { state.accountIndex(login: $0) }
                ?? email.flatMap { state.accountIndex(email: $0) }
                ?? phone.flatMap(MusbookingRules.normalizedPhone).flatMap { state.accountIndex(phone: $0) }
            guard let index = found else {
                throw MusbookingFailure.badRequest(MusbookingText.restoreNotFound(login: login ?? "", email: email ?? "", phone: phone ?? ""))
            }
            let user = state.users[index]
            if bySMS {
                guard let userPhone = user.phone else { throw MusbookingFailure.badRequest(MusbookingText.noPhoneOnFile) }
                state.users[index].password = password
                environment.outbox.sendSMS(to: userPhone, text: "Ваш новый пароль: \(password)", code: password)
                return .text(.ok, "Новый пароль отправлен по SMS на номер \(userPhone)")
            }
            guard let userEmail = user.email else { throw MusbookingFailure.badRequest(MusbookingText.noEmailOnFile) }
            state.users[index].password = password
            environment.outbox.sendEmail(to: userEmail, subject: "Восстановление пароля",
                                         body: "Ваш новый пароль для входа в Musbooking: \(password)")
            return .text(.ok, "Новый пароль отправлен на почту \(userEmail)")
        }
    }

    /// `POST api/users/send-confirm`: "sends" the confirmation link to the user's address.
    func sendConfirmation(_ request: HTTPRequest) throws -> HTTPResponse {
        let host = Musbooking.linkHost(request.headers["Host"], localPort: request.localPort)
        return try transaction { state in
            let user = state.users[try authenticatedIndex(request, in: state)]
            guard let email = user.email else { throw MusbookingFailure.badRequest(MusbookingText.noEmail) }
            let link = "http://\(host)/api/users/confirm?id=\(user.id)"
            environment.outbox.sendEmail(to: email, subject: "Подтверждение почты",
                                         body: "Чтобы подтвердить почту для Musbooking, откройте ссылку: \(link)", link: link)
            // The original answers the JSON string "ok".
            return .json(.ok, object: "ok")
        }
    }

    /// `GET api/users/confirm?id=`: the link from the e-mail, opened in a browser.
    func confirm(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try MusbookingParameters(request).text("id")
        return try transaction { state in
            guard let id, let index = state.index(ofUserId: id) else { throw MusbookingFailure.badRequest(MusbookingText.userNotFound) }
            guard state.users[index].email != nil else { throw MusbookingFailure.badRequest(MusbookingText.noEmail) }
            state.users[index].isConfirmed = true
            return .text(.ok, MusbookingText.emailConfirmed)
        }
    }

    /// `GET api/categories/:id`: the seed's category; auth required, as everywhere by default.
    func category(_ request: HTTPRequest) throws -> HTTPResponse {
        let raw = request.pathParameters["id"] ?? ""
        return try transaction { state in
            _ = try authenticatedIndex(request, in: state)
            guard let id = Int(raw) else { throw MusbookingFailure.badRequest(MusbookingText.badCategoryId(raw)) }
            guard let category = state.categories[id] else { throw MusbookingFailure.badRequest(MusbookingText.categoryNotFound(id)) }
            return .json(.ok, object: category.jsonObject)
        }
    }

    /// The Host header for the confirmation link, if it looks like `host[:port]`; else loopback and
    /// the port the request came in on (8080 when it did not come over a socket).
    static func linkHost(_ header: String?, localPort: Int = 0) -> String {
        guard let host = header?.trimmingCharacters(in: .whitespaces), !host.isEmpty, host.utf8.count <= 255,
              HTTPRequest.isValidHost(host), !host.contains("@")
        else { return "127.0.0.1:\(localPort > 0 ? localPort : 8080)" }
        return host
    }
}
