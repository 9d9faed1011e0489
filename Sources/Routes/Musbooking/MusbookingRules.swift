#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

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
    static let tooManyAccounts = "Слишком много пользователей: достигнут предел сервера"

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
