import EmulationKit

/// What musbooking keeps to itself: the secrets the journal hides, how it writes a phone number.
extension Musbooking {
    /// The SMS code, however a client names it.
    package static var secretFields: Set<String> { ["code", "smsCode", "sms_code"] }

    /// Its server's `FormatPhone`: the 10 digits of a Russian number, however written.
    package static func phoneNumber(_ raw: String) -> String? { PhoneNumber.normalize(raw) }
}
