import HTTPServer

/// A SkyZone customer's profile exactly as `/customer` and `/tokens` return it.
package struct SkyZoneProfile: Codable, Sendable, Equatable {
    /// The nested postal address; every field is present, empty when unknown.
    package struct Address: Codable, Sendable, Equatable {
        package var street = ""
        package var city = ""
        package var countryCode = ""
        package var stateCode = ""
        package var postalCode = ""

        package init() {}

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            street = try c.decodeIfPresent(String.self, forKey: .street) ?? ""
            city = try c.decodeIfPresent(String.self, forKey: .city) ?? ""
            countryCode = try c.decodeIfPresent(String.self, forKey: .countryCode) ?? ""
            stateCode = try c.decodeIfPresent(String.self, forKey: .stateCode) ?? ""
            postalCode = try c.decodeIfPresent(String.self, forKey: .postalCode) ?? ""
        }
    }

    package var id: Int
    /// The username of an e-mail account; empty for a social one.
    package var email = ""
    package var firstName = ""
    package var lastName = ""
    package var birthday = ""
    package var lastVisitLocationName = ""
    package var lastVisitDate = ""
    package var loyaltyStatusBanner = ""
    package var address = Address()
    package var phoneNumber = ""
    package var mobilePhoneNumber = ""
    package var gender = ""
    package var photo = ""
    package var skySockSize = ""
    package var emergencyContactName = ""
    package var emergencyContactNumber = ""
    /// The social sign-in pair; empty strings for an e-mail account, so every profile has the keys.
    package var externalToken = ""
    package var externalType = ""

    enum CodingKeys: String, CodingKey {
        case id, email, firstName, lastName, birthday, lastVisitLocationName, lastVisitDate, loyaltyStatusBanner
        case address, phoneNumber, mobilePhoneNumber, gender, photo, skySockSize
        case emergencyContactName, emergencyContactNumber
        case externalToken = "external-token"
        case externalType = "external-type"
    }

    package init(id: Int) {
        self.id = id
    }

    /// Decodes a seed record: every field but `id` may be left out.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String { try c.decodeIfPresent(String.self, forKey: key) ?? "" }
        id = try c.decode(Int.self, forKey: .id)
        email = try text(.email)
        firstName = try text(.firstName)
        lastName = try text(.lastName)
        birthday = try text(.birthday)
        lastVisitLocationName = try text(.lastVisitLocationName)
        lastVisitDate = try text(.lastVisitDate)
        loyaltyStatusBanner = try text(.loyaltyStatusBanner)
        address = try c.decodeIfPresent(Address.self, forKey: .address) ?? Address()
        phoneNumber = try text(.phoneNumber)
        mobilePhoneNumber = try text(.mobilePhoneNumber)
        gender = try text(.gender)
        photo = try text(.photo)
        skySockSize = try text(.skySockSize)
        emergencyContactName = try text(.emergencyContactName)
        emergencyContactNumber = try text(.emergencyContactNumber)
        externalToken = try text(.externalToken)
        externalType = try text(.externalType)
    }
}

/// The social networks SkyZone signs in with.
enum SkyZoneSocialType: String, CaseIterable, Sendable {
    case facebook, twitter, instagram
}

/// What a `/customer` or `/tokens` body asks for: one of the document's two forms.
enum SkyZoneCredentials: Sendable {
    case password(username: String, password: String)
    case social(type: SkyZoneSocialType, token: String)

    /// Reads either form from a JSON object (form fields arrive as one too); a failure is the 400.
    static func parse(_ fields: JSONValue) throws(HTTPError) -> SkyZoneCredentials {
        let hasPassword = fields["username"] != nil || fields["password"] != nil
        let hasSocial = fields["external-token"] != nil || fields["external-type"] != nil
        if hasPassword && hasSocial {
            throw HTTPError(.badRequest, "Send either \"username\" and \"password\" or \"external-token\" and \"external-type\", not both")
        }
        if hasSocial {
            let token = try string("external-token", in: fields)
            let typeName = try string("external-type", in: fields)
            guard let type = SkyZoneSocialType(rawValue: typeName) else {
                let valid = SkyZoneSocialType.allCases.map(\.rawValue).joined(separator: ", ")
                throw HTTPError(.badRequest, "\"external-type\" must be one of \(valid)")
            }
            return .social(type: type, token: token)
        }
        if hasPassword {
            return .password(username: try string("username", in: fields), password: try string("password", in: fields))
        }
        throw HTTPError(.badRequest, "Expected {\"username\", \"password\"} or {\"external-token\", \"external-type\"}")
    }

    private static func string(_ key: String, in fields: JSONValue) throws(HTTPError) -> String {
        guard let value = fields[key] else { throw HTTPError(.badRequest, "Missing field \"\(key)\"") }
        guard let text = value.string else { throw HTTPError(.badRequest, "Field \"\(key)\" must be a string") }
        guard !text.allSatisfy(\.isWhitespace) else { throw HTTPError(.badRequest, "Field \"\(key)\" must not be empty") }
        return text
    }
}
