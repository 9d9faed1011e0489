/// Phone normalisation as the musbooking server's `FormatPhone` does it: `+7 (912) 345-67-89`,
/// `89123456789` and `9123456789` are all `9123456789`.
package enum PhoneNumber {
    /// Strips `( ) space - ,`, drops a leading `+7`, or the `7`/`8` of an 11-digit number, and
    /// cuts the rest to 10 characters (other country codes keep what is left, as the original).
    package static func normalize(_ raw: String) -> String {
        var phone = Substring(raw.filter { !" ()-,\t".contains($0) })
        if phone.hasPrefix("+7") {
            phone = phone.dropFirst(2)
        } else if phone.count == 11, let first = phone.first, first == "7" || first == "8" {
            phone = phone.dropFirst()
        }
        return String(phone.prefix(10))
    }
}
