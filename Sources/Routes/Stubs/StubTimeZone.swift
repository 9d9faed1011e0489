#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer

/// A time zone read from the system's zoneinfo files (TZif), as Java's `ZoneId.of` names them,
/// or a fixed offset (`UTC`, `Z`, `+02:00`, `GMT+2`). No ICU: the offsets are the file's.
struct StubTimeZone: Sendable {
    let id: String
    /// Transition instants (seconds) and the offset and abbreviation from each on.
    private let transitions: [Int64]
    private let kinds: [(offset: Int, abbreviation: String)]
    private let transitionKinds: [Int]
    private let initial: Int

    static let utc = StubTimeZone(fixed: "UTC", offset: 0, abbreviation: "UTC")

    private init(fixed id: String, offset: Int, abbreviation: String) {
        self.id = id
        transitions = []
        kinds = [(offset, abbreviation)]
        transitionKinds = []
        initial = 0
    }

    private init(id: String, transitions: [Int64], transitionKinds: [Int], kinds: [(Int, String)], initial: Int) {
        self.id = id
        self.transitions = transitions
        self.transitionKinds = transitionKinds
        self.kinds = kinds.map { (offset: $0.0, abbreviation: $0.1) }
        self.initial = initial
    }

    /// Offset (seconds east of UTC) and abbreviation at `seconds` since 1970.
    func at(_ seconds: Int64) -> (offset: Int, abbreviation: String) {
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid] <= seconds { lo = mid + 1 } else { hi = mid }
        }
        let kind = lo == 0 ? initial : transitionKinds[lo - 1]
        return kinds.indices.contains(kind) ? kinds[kind] : (0, "UTC")
    }

    private static let cache = Locked<[String: StubTimeZone]>([:])
    static let root = "/usr/share/zoneinfo"

    /// The zone `name` names, nil when neither a fixed offset nor an installed zone.
    static func named(_ name: String) -> StubTimeZone? {
        if ["UTC", "Z", "GMT", "UT", "Etc/UTC", "Etc/GMT"].contains(name) { return StubTimeZone(fixed: name, offset: 0, abbreviation: name == "Z" ? "UTC" : name) }
        if let offset = fixedOffset(name) { return StubTimeZone(fixed: name, offset: offset, abbreviation: name) }
        if let known = cache.withLock({ $0[name] }) { return known }
        guard !name.isEmpty, name.count < 64, !name.hasPrefix("/"), !name.split(separator: "/").contains(".."),
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_+-".unicodeScalars.contains($0)) }),
              let bytes = read(root + "/" + name), let zone = parse(bytes, id: name) else { return nil }
        cache.withLock { if $0.count < 256 { $0[name] = zone } }
        return zone
    }

    /// `+02:00`, `-0530`, `+2`, `UTC+01:00`, `GMT-3`: seconds east of UTC.
    static func fixedOffset(_ text: String) -> Int? {
        var s = Substring(text)
        for prefix in ["UTC", "GMT", "UT"] where s.hasPrefix(prefix) { s = s.dropFirst(prefix.count); break }
        guard let sign = s.first, sign == "+" || sign == "-" else { return nil }
        let digits = s.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCII), let n = Int(digits) else { return nil }
        let (h, m, sec): (Int, Int, Int)
        switch digits.count {
        case 1, 2: (h, m, sec) = (n, 0, 0)
        case 4: (h, m, sec) = (n / 100, n % 100, 0)
        case 6: (h, m, sec) = (n / 10000, n / 100 % 100, n % 100)
        default: return nil
        }
        guard h <= 18, m < 60, sec < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60 + sec)
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// RFC 8536: the version 2+ block (64-bit times) when there is one, else version 1's.
    private static func parse(_ b: [UInt8], id: String) -> StubTimeZone? {
        func be(_ at: Int, _ n: Int) -> Int64? {
            guard at >= 0, at + n <= b.count else { return nil }
            var v: UInt64 = 0
            for i in 0..<n { v = v << 8 | UInt64(b[at + i]) }
            return n == 4 ? Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: v))) : Int64(bitPattern: v)
        }
        guard b.count >= 44, b[0] == 0x54, b[1] == 0x5A, b[2] == 0x69, b[3] == 0x66 else { return nil }
        func counts(_ at: Int) -> [Int]? {
            var c: [Int] = []
            for i in 0..<6 { guard let v = be(at + 20 + 4 * i, 4), v >= 0, v < 100_000 else { return nil }; c.append(Int(v)) }
            return c  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
        }
        guard var c = counts(0) else { return nil }
        var start = 44, timeSize = 4
        if b[4] >= 0x32 {
            let v1 = c[3] * 4 + c[3] + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
            guard let c2 = counts(44 + v1) else { return nil }
            c = c2; start = 44 + v1 + 44; timeSize = 8
        }
        let (timecnt, typecnt, charcnt) = (c[3], c[4], c[5])
        var times: [Int64] = [], idx: [Int] = []
        var p = start
        for _ in 0..<timecnt { guard let t = be(p, timeSize) else { return nil }; times.append(t); p += timeSize }
        for _ in 0..<timecnt { guard p < b.count else { return nil }; idx.append(Int(b[p])); p += 1 }
        var raw: [(Int, Int)] = []
        for _ in 0..<typecnt {
            guard let off = be(p, 4), p + 5 < b.count else { return nil }
            raw.append((Int(off), Int(b[p + 5])))
            p += 6
        }
        guard p + charcnt <= b.count, typecnt > 0 else { return nil }
        let chars = Array(b[p..<(p + charcnt)])
        let kinds = raw.map { (off, ai) -> (Int, String) in
            let end = chars[min(ai, chars.count)...].firstIndex(of: 0) ?? chars.count
            return (off, String(decoding: chars[min(ai, chars.count)..<end], as: UTF8.self))
        }
        return StubTimeZone(id: id, transitions: times, transitionKinds: idx, kinds: kinds, initial: 0)
    }
}
