/// An operator setting a system declares: a command-line flag, its environment variable and its
/// key in `seed.json`'s `settings` (flags win over the seed, the seed over the default).
package struct SystemSetting: Sendable {
    /// What values it takes.
    package enum Kind: Sendable, Equatable {
        /// 1 to 9 decimal digits (a fixed code); unset by default.
        case digits
        /// A whole number in the range; `defaultValue` when nobody sets it.
        case count(ClosedRange<Int>, defaultValue: Int)
    }

    /// The key under `settings` in `seed.json`, and in `MockEnvironment.settings`.
    package let key: String
    package let flag: String
    package let env: String
    package let valueName: String
    package let help: String
    package let kind: Kind
    /// What a `.count` counts, for `--help` ("accounts"); empty for a plain number.
    package let unit: String

    package init(key: String, flag: String, env: String, valueName: String, help: String, kind: Kind, unit: String = "") {
        self.key = key
        self.flag = flag
        self.env = env
        self.valueName = valueName
        self.help = help
        self.kind = kind
        self.unit = unit
    }

    /// The values it takes, as `--help` shows them: `1–9 digits`, `1–10000000 accounts`. Made from
    /// `kind`, which `parse` checks against, so the help cannot promise other bounds.
    package var valuesHelp: String {
        switch kind {
        case .digits: return "1–9 digits"
        case .count(let range, _): return "\(range.lowerBound)–\(range.upperBound)" + (unit.isEmpty ? "" : " " + unit)
        }
    }

    /// The value when neither a flag nor the seed sets it.
    package var defaultValue: SettingValue? {
        if case .count(_, let value) = kind { return .number(value) }
        return nil
    }

    /// Why a flag's text was refused: names the flag and the value.
    package struct Invalid: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// A flag's (or environment variable's) text as a value.
    package func parse(_ text: String) throws(Invalid) -> SettingValue {
        switch kind {
        case .digits:
            guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw Invalid(description: "\(flag) must be 1 to 9 digits, not \"\(text)\"")
            }
            return .text(text)
        case .count(let range, _):
            guard let value = Int(text), range.contains(value) else {
                throw Invalid(description: "\(flag) must be a whole number in \(range.lowerBound)...\(range.upperBound), not \"\(text)\"")
            }
            return .number(value)
        }
    }
}

/// A setting's value: digits as text, or a count.
package enum SettingValue: Sendable, Equatable {
    case text(String)
    case number(Int)

    package var text: String? { if case .text(let value) = self { return value } else { return nil } }
    package var number: Int? { if case .number(let value) = self { return value } else { return nil } }
}
