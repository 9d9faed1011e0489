import HTTPServer
import EmulationKit

extension SkyZone: AccountAdministration {
    package static let accountFields = "{email, password, ...profile} or {externalToken, externalType, ...profile}"
    package static var accountExample: OAS.Object { ["system": .string(name), "email": "new@example.com", "password": "secret1"] }
    /// The e-mail sign-up and a few profile fields (the API takes every profile field, and a social login).
    package static var accountFormFields: [AccountFormField] {
        [.init("email", "E-mail", .email, required: true, placeholder: "new@example.com"),
         .init("password", "Password", .password, required: true),
         .init("firstName", "First name"), .init("lastName", "Last name"),
         .init("birthday", "Birthday", placeholder: "1990-05-17"), .init("mobilePhoneNumber", "Mobile phone", .tel)]
    }

    /// The profile's text fields a created account may set.
    private static var profileFields: [(name: String, field: WritableKeyPath<SkyZoneProfile, String>)] { [
        ("firstName", \.firstName), ("lastName", \.lastName), ("birthday", \.birthday),
        ("lastVisitLocationName", \.lastVisitLocationName), ("lastVisitDate", \.lastVisitDate),
        ("loyaltyStatusBanner", \.loyaltyStatusBanner), ("phoneNumber", \.phoneNumber),
        ("mobilePhoneNumber", \.mobilePhoneNumber), ("gender", \.gender), ("photo", \.photo),
        ("skySockSize", \.skySockSize), ("emergencyContactName", \.emergencyContactName),
        ("emergencyContactNumber", \.emergencyContactNumber),
    ] }

    /// `{"email", "password", …profile fields}` or `{"externalToken", "externalType", …}`: the
    /// checks of `POST /customer`; an existing username or social pair is a conflict.
    package func createAccount(_ fields: AccountFields) throws(AccountProblem) -> AccountSummary {
        var fields = fields
        let email = try fields.string("email"), password = try fields.string("password")
        let token = try fields.string("externalToken"), typeName = try fields.string("externalType")
        var profile = SkyZoneProfile(id: 0)
        for (name, field) in SkyZone.profileFields {
            if let text = try fields.string(name) { profile[keyPath: field] = text }
        }
        try fields.checkAllRead()
        let credentials: SkyZoneCredentials
        switch (email, password, token, typeName) {
        case (let email?, let password?, nil, nil):
            guard !email.allSatisfy(\.isWhitespace) else { throw .invalid("\"email\" must not be empty") }
            guard !password.allSatisfy(\.isWhitespace) else { throw .invalid("\"password\" must not be empty") }
            credentials = .password(username: email, password: password)
        case (nil, nil, let token?, let typeName?):
            guard !token.allSatisfy(\.isWhitespace) else { throw .invalid("\"externalToken\" must not be empty") }
            guard let type = SkyZoneSocialType(rawValue: typeName) else {
                throw .invalid("\"externalType\" must be one of \(SkyZoneSocialType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            credentials = .social(type: type, token: token)
        default:
            throw .invalid("give either \"email\" and \"password\" or \"externalToken\" and \"externalType\"")
        }
        let created = try state.withLock { (state) throws(AccountProblem) -> SkyZoneProfile in
            guard state.accounts.count < accountCap.limit else {
                throw .full("the mock holds its maximum of \(accountCap.limit) SkyZone accounts (--max-skyzone-accounts)")
            }
            switch credentials {
            case .password(let username, _):
                guard state.idByUsername[username.lowercased()] == nil else { throw .exists("a SkyZone account with e-mail \(username) exists") }
            case .social(let type, let token):
                guard state.idBySocial[SkyZone.socialKey(type.rawValue, token)] == nil else {
                    throw .exists("a SkyZone account with this \(type.rawValue) token exists")
                }
            }
            return state.add(profile, signingInWith: credentials)
        }
        return accountListing()?.accounts.first { $0.id == String(created.id) } ?? AccountSummary(id: String(created.id))
    }

    package func removeAccount(id: String) -> Bool {
        guard let number = Int(id) else { return false }
        return state.withLock { state in
            guard let account = state.accounts.removeValue(forKey: number) else { return false }
            state.touchedAccounts.touch(id)
            state.idByUsername = state.idByUsername.filter { $0.value != number }
            let profile = account.profile
            if !profile.externalType.isEmpty { state.idBySocial[SkyZone.socialKey(profile.externalType, profile.externalToken)] = nil }
            for (token, owner) in state.tokens.values where owner == number { state.tokens.remove(token) }
            return true
        }
    }
}
