/// Phone normalisation as the musbooking server does it: `+7 (912) 345-67-89`, `89123456789`
/// and `9123456789` are all `9123456789`.
public enum PhoneNumber {
    /// Strips `( ) space - , +`, then drops the country prefix 7 or 8 of an 11-digit number.
    public static func normalize(_ raw: String) -> String {
        var digits = raw.filter { !" ()-,+\t.".contains($0) }
        if digits.count == 11, let first = digits.first, first == "7" || first == "8" {
            digits.removeFirst()
        }
        return digits
    }
}
