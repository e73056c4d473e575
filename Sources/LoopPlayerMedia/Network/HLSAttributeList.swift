/// The attributes of a tag such as `#EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"`.
///
/// Quoted values keep their commas; names are upper-cased letters, digits and dashes. Later
/// duplicates win. Whitespace after a comma is tolerated (common in hand-written playlists).
package struct HLSAttributeList {
    private var quoted: [String: String] = [:]
    private var plain: [String: String] = [:]

    /// Parses `text`, or returns the reason it is malformed.
    package static func parse(_ text: Substring) -> Result<HLSAttributeList, Malformed> {
        var list = HLSAttributeList()
        var rest = text[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { return .success(list) }
            guard let equals = rest.firstIndex(of: "=") else { return .failure(Malformed("'\(rest.prefix(40))' has no '='")) }
            let name = String(rest[..<equals]).trimmingSpaces
            guard !name.isEmpty, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "-" }) else {
                return .failure(Malformed("'\(name.prefix(40))' is not an attribute name"))
            }
            rest = rest[rest.index(after: equals)...]
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { return .failure(Malformed("\(name) has no closing quote")) }
                list.quoted[name] = String(body[..<close])
                list.plain[name] = nil
                rest = body[body.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                list.plain[name] = String(rest[..<end]).trimmingSpaces
                list.quoted[name] = nil
                rest = rest[end...]
            }
            if rest.isEmpty { return .success(list) }
            guard rest.first == "," else { return .failure(Malformed("unexpected '\(rest.prefix(20))' after \(name)")) }
            rest = rest.dropFirst()
        }
    }

    package struct Malformed: Error {
        package let reason: String
        package init(_ reason: String) { self.reason = reason }
    }

    /// A quoted-string attribute (`URI="…"`).
    package func string(_ name: String) -> String? { quoted[name] }

    /// An enumerated-string attribute (`METHOD=NONE`), also accepted quoted.
    package func enumerated(_ name: String) -> String? { plain[name] ?? quoted[name] }

    package func contains(_ name: String) -> Bool { plain[name] != nil || quoted[name] != nil }

    /// A non-negative decimal integer, or `.failure` if present and malformed.
    package func integer(_ name: String) -> Result<Int?, Malformed> {
        guard let text = plain[name] ?? quoted[name] else { return .success(nil) }
        guard let value = Int(text), value >= 0 else { return .failure(Malformed("\(name)=\(text) is not a non-negative integer")) }
        return .success(value)
    }

    /// A finite non-negative decimal number, or `.failure` if present and malformed.
    package func decimal(_ name: String) -> Result<Double?, Malformed> {
        guard let text = plain[name] ?? quoted[name] else { return .success(nil) }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            return .failure(Malformed("\(name)=\(text) is not a non-negative number"))
        }
        return .success(value)
    }

    /// `RESOLUTION=1280x720`, or `.failure` if present and malformed.
    package func resolution(_ name: String) -> Result<HLSResolution?, Malformed> {
        guard let text = plain[name] ?? quoted[name] else { return .success(nil) }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return .failure(Malformed("\(name)=\(text) is not WIDTHxHEIGHT"))
        }
        return .success(HLSResolution(width: width, height: height))
    }
}

extension String {
    package var trimmingSpaces: String {
        var slice = self[...]
        while slice.first == " " || slice.first == "\t" { slice = slice.dropFirst() }
        while slice.last == " " || slice.last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
