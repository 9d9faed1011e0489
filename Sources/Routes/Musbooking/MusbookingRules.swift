import Foundation
import HTTPServer

/// Why a musbooking request failed; each case is one response, so handlers just throw.
enum MusbookingFailure: Error, Equatable {
    /// 400 with the original's plain-text message.
    case badRequest(String)
    /// 401 `Access denied`: no token, an unknown one, or one ended by a newer login.
    case accessDenied

    var response: HTTPResponse {
        switch self {
        case .badRequest(let message):
            return .text(.badRequest, message)
        case .accessDenied:
            var r = HTTPResponse.text(.unauthorized, "Access denied")
            // RFC 9110 §11.6.1: a 401 names the scheme it wants.
            r.headers.set("WWW-Authenticate", "Bearer")
            return r
        }
    }
}

/// The error texts, in one place so handlers and tests agree (Russian, as the original answers).
enum MusbookingText {
    static let codeSent = "Код успешно сформирован и послан получателю"
    static let noName = "Не задано имя"
    static let noPhone = "Не задан номер телефона"
    static let phoneTaken = "Пользователь с таким номером или почтой уже зарегистрирован в системе"
    static let badCode = "Не задан или неверен код"
    static let weakPassword = "Пароль должен содержать не менее 6 знаков и 1 цифры"
    static let shortLogin = "Логин должен содержать не менее 6 знаков"
    static let loginTaken = "Пользователь с такими параметрами уже присутствует в базе данных"
    static let noLogin = "Не задан логин"
    static let wrongPassword = "Пароль неверен"
    static let tokenExpired = "Срок действия токена истёк"
    static let noEmail = "У пользователя не указана почта"
    static let noPhoneOnFile = "У пользователя не указан номер телефона, восстановите пароль по почте"
    static let noEmailOnFile = "У пользователя не указана почта, восстановите пароль по SMS"
    static let noRestoreKey = "Не задан логин, почта или номер телефона"
    static let userNotFound = "Не найден пользователь"
    static let emailConfirmed = "Почта пользователя подтверждена"

    static func badPhone(_ raw: String) -> String { "Неверный номер телефона: \(echo(raw)) (нужно 10 цифр, например +7 912 345-67-89)" }
    static func badEmail(_ raw: String) -> String { "Неверный адрес почты: \(echo(raw))" }
    static func badBirthday(_ raw: String) -> String {
        "Неверная дата рождения: \(echo(raw)) (формат дд.ММ.гггг чч:мм:сс, дд.ММ.гггг или гггг-ММ-ддTчч:мм:сс)"
    }
    static func loginNotFound(_ login: String) -> String { "Пользователь не найден: \(echo(login))" }
    static func restoreNotFound(login: String, email: String, phone: String) -> String {
        "Не найден пользователь по логину \(echo(login)), email \(echo(email)), или phone \(echo(phone))"
    }
    static func badCategoryId(_ raw: String) -> String { "Неверный идентификатор категории: \(echo(raw))" }
    static func malformedRequest(_ problem: HTTPRequest.ParameterProblem) -> String {
        switch problem {
        case .invalidUTF8: return "Неверный формат запроса: текст не в кодировке UTF-8"
        case .invalidJSON: return "Неверный формат запроса: тело не является объектом JSON"
        case .invalidMultipart: return "Неверный формат запроса: повреждено тело multipart/form-data"
        }
    }

    /// Input quoted back in an error, cut short so a long value cannot flood the message.
    static func echo(_ raw: String) -> String { raw.count > 64 ? String(raw.prefix(64)) + "…" : raw }
    static func categoryNotFound(_ id: Int) -> String { "Категория не найдена: \(id)" }
}

/// Input rules shared by register, change and restore.
enum MusbookingRules {
    static let minimumPasswordLength = 6
    static let minimumLoginLength = 6

    /// The original's rule: at least 6 characters and at least one digit.
    static func isAcceptablePassword(_ password: String) -> Bool {
        password.count >= minimumPasswordLength && password.contains(where: \.isASCIIDigitCharacter)
    }

    /// The normalised phone, or nil unless it is the 10 digits of a Russian number.
    static func normalizedPhone(_ raw: String) -> String? {
        let phone = PhoneNumber.normalize(raw)
        guard phone.count == 10, phone.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
        return phone
    }

    /// A plain sanity check (`a@b.c`, no spaces), enough to catch typing slips.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, text.count <= 254, !text.contains(where: \.isWhitespace) else { return false }
        let local = parts[0], domain = parts[1]
        return !local.isEmpty && domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
            && !domain.contains("..")
    }

    /// `sms=true`, `1`, `on`, `yes` (any case) choose the SMS channel.
    static func isTrue(_ text: String?) -> Bool {
        guard let text else { return false }
        return ["true", "1", "on", "yes"].contains(text.lowercased())
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}

/// Case-insensitive lookup of trimmed request parameters under several accepted names.
struct MusbookingParameters {
    let parameters: Parameters

    /// Refuses text that is not UTF-8 and bodies that do not parse, rather than guessing.
    init(_ request: HTTPRequest) throws {
        switch request.validatedParameters() {
        case .success(let p): parameters = p
        case .failure(let problem): throw MusbookingFailure.badRequest(MusbookingText.malformedRequest(problem))
        }
    }

    /// The first value under any of the names, trimmed, or nil when absent or blank.
    func text(_ names: String...) -> String? {
        guard let value = present(names) else { return nil }
        return value.isEmpty ? nil : value
    }

    /// The value exactly as sent (passwords keep their spaces), nil when absent or empty.
    func raw(_ name: String) -> String? {
        guard let value = parameters[name], !value.isEmpty else { return nil }
        return value
    }

    /// The first value under any of the names, trimmed; "" when sent blank, nil when not sent.
    func present(_ names: String...) -> String? { present(names) }

    private func present(_ names: [String]) -> String? {
        for name in names {
            if let value = parameters[name] { return value.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        return nil
    }
}
