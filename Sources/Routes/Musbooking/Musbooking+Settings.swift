import EmulationKit

/// musbooking's operator settings: a fixed SMS code and the caps on what clients can grow.
extension Musbooking {
    static let smsCodeSetting = SystemSetting(
        key: "smsCode", flag: "--sms-code", env: "MOCK_SMS_CODE", valueName: "CODE",
        help: "every musbooking SMS code is CODE (digits), so a UI test can type it (default: random; seed setting smsCode)",
        kind: .digits)
    static let pendingCodesSetting = SystemSetting(
        key: "maxPendingSMSCodes", flag: "--max-pending-sms-codes", env: "MOCK_MAX_PENDING_SMS_CODES", valueName: "N",
        help: "musbooking SMS codes kept unused at most; past it the oldest is dropped (default 10000)",
        kind: .count(1...10_000_000, defaultValue: 10_000), unit: "codes")
    static let accountsSetting = SystemSetting(
        key: "maxMusbookingAccounts", flag: "--max-musbooking-accounts", env: "MOCK_MAX_MUSBOOKING_ACCOUNTS", valueName: "N",
        help: "musbooking accounts at most; more registrations get 503 (default 100000)",
        kind: .count(1...10_000_000, defaultValue: 100_000), unit: "accounts")

    package static var settings: [SystemSetting] { [smsCodeSetting, pendingCodesSetting, accountsSetting] }
}

extension MockEnvironment {
    /// Every musbooking SMS code is this value when set (`--sms-code`), so a UI test can type it.
    package var fixedSMSCode: String? {
        get { settings[Musbooking.smsCodeSetting.key]?.text }
        set { settings[Musbooking.smsCodeSetting.key] = newValue.map(SettingValue.text) }
    }

    /// Pending (sent, not yet used) musbooking SMS codes kept; past it the oldest is dropped.
    package var maxPendingSMSCodes: Int? {
        get { settings[Musbooking.pendingCodesSetting.key]?.number }
        set { settings[Musbooking.pendingCodesSetting.key] = newValue.map(SettingValue.number) }
    }

    /// Musbooking accounts (seeded and registered); past it registration is refused.
    package var maxMusbookingAccounts: Int? {
        get { settings[Musbooking.accountsSetting.key]?.number }
        set { settings[Musbooking.accountsSetting.key] = newValue.map(SettingValue.number) }
    }
}
