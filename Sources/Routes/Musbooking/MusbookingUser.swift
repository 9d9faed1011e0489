#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// One musbooking person: an account (has a login and password) or a customer record awaiting one.
/// `Codable` in the seed's format: the state file keeps users exactly as a seed would list them.
struct MusbookingUser: Codable, Sendable, Equatable {
    var id: String
    var login: String?
    var password: String?
    /// Normalised (`9123456789`).
    var phone: String?
    var firstName: String?
    var lastName: String?
    var surName: String?
    var email: String?
    var birthday: MusbookingDate?
    var isConfirmed: Bool
    var fcm: String?
    var room: String?
    var base: String?
    var parts: [MusbookingPart]

    /// Customer records from the seed have no login yet: they cannot log in or restore a password.
    var isAccount: Bool { login != nil && password != nil }

    init(id: String, login: String, password: String, phone: String, firstName: String, lastName: String?,
         surName: String?, email: String?, birthday: MusbookingDate?) {
        self.id = id
        self.login = login
        self.password = password
        self.phone = phone
        self.firstName = firstName
        self.lastName = lastName
        self.surName = surName
        self.email = email
        self.birthday = birthday
        isConfirmed = false
        fcm = nil
        room = nil
        base = nil
        parts = []
    }

    private enum CodingKeys: String, CodingKey {
        case id, login, password, phone, firstName, lastName, surName, email, birthday, isConfirmed, fcm, room, base, parts
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Ids are GUIDs; kept lower-case so a confirmation link matches whatever case it comes back in.
        id = try c.decode(String.self, forKey: .id).lowercased()
        login = try c.decodeIfPresent(String.self, forKey: .login)
        password = try c.decodeIfPresent(String.self, forKey: .password)
        phone = try c.decodeIfPresent(String.self, forKey: .phone).map(PhoneNumber.normalize)
        firstName = try c.decodeIfPresent(String.self, forKey: .firstName)
        lastName = try c.decodeIfPresent(String.self, forKey: .lastName)
        surName = try c.decodeIfPresent(String.self, forKey: .surName)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        if let text = try c.decodeIfPresent(String.self, forKey: .birthday) {
            guard let date = MusbookingDate(parsing: text) else {
                throw DecodingError.dataCorruptedError(forKey: .birthday, in: c,
                                                       debugDescription: "\"\(text)\" is not dd.MM.yyyy HH:mm:ss or yyyy-MM-ddTHH:mm:ss")
            }
            birthday = date
        }
        isConfirmed = try c.decodeIfPresent(Bool.self, forKey: .isConfirmed) ?? false
        fcm = try c.decodeIfPresent(String.self, forKey: .fcm)
        room = try c.decodeIfPresent(String.self, forKey: .room)
        base = try c.decodeIfPresent(String.self, forKey: .base)
        parts = try c.decodeIfPresent([MusbookingPart].self, forKey: .parts) ?? []
    }

    /// The seed's format (absent fields left out, the birthday as the original writes it).
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(login, forKey: .login)
        try c.encodeIfPresent(password, forKey: .password)
        try c.encodeIfPresent(phone, forKey: .phone)
        try c.encodeIfPresent(firstName, forKey: .firstName)
        try c.encodeIfPresent(lastName, forKey: .lastName)
        try c.encodeIfPresent(surName, forKey: .surName)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encodeIfPresent(birthday?.formatted, forKey: .birthday)
        try c.encode(isConfirmed, forKey: .isConfirmed)
        try c.encodeIfPresent(fcm, forKey: .fcm)
        try c.encodeIfPresent(room, forKey: .room)
        try c.encodeIfPresent(base, forKey: .base)
        if !parts.isEmpty { try c.encode(parts, forKey: .parts) }
    }

    /// `GET api/users/user`: every key always present, `null` when unknown; `name` is the login,
    /// as the original document says.
    var profileJSON: JSONValue {
        [
            "id": .string(id),
            "login": JSONValue(login),
            "name": JSONValue(login),
            "firstName": JSONValue(firstName),
            "lastName": JSONValue(lastName),
            "surName": JSONValue(surName),
            "phone": JSONValue(phone),
            "email": JSONValue(email),
            "birthday": JSONValue(birthday?.formatted),
            "room": JSONValue(room),
            "base": JSONValue(base),
            "isConfirmed": .bool(isConfirmed),
            "fcm": JSONValue(fcm),
            "parts": .array(parts.map(\.json)),
        ]
    }
}
