import EmulationKit

/// What the journal hides of Musbooking's traffic besides the common secrets.
extension Musbooking {
    /// The SMS code, however a client names it.
    public static var secretFields: Set<String> { ["code", "smsCode", "sms_code"] }
}
