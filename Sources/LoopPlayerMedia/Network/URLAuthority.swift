/// The scheme and authority of a URL string, split the way FFmpeg's `av_url_split` splits them,
/// so a policy judges the host FFmpeg will actually connect to.
///
/// ```swift
/// URLAuthority("http://good.com@evil.com:8080/a")   // scheme "http", host "evil.com", port 8080
/// ```
/// FFmpeg finds a protocol as the leading scheme characters before a ':' or a ',' (`subfile,,…:`
/// is the `subfile` protocol); the authority ends at the first '/', '?' or '#'; userinfo ends at
/// the last '@' before that; an IPv6 host is in brackets.
package struct URLAuthority: Equatable {
    /// Lower-cased; nil for a bare path.
    package var scheme: String?
    package var userinfo: String?
    /// Lower-cased, without IPv6 brackets or a trailing dot; nil when there is no authority.
    package var host: String?
    package var port: Int?
    /// Everything after the authority (or after the scheme when there is none).
    package var rest: Substring

    package init(_ text: String) {
        let schemeEnd = text.firstIndex { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".")) }
        guard let end = schemeEnd, end != text.startIndex, text[text.startIndex].isLetter,
              text[end] == ":" || text[end] == "," else {
            scheme = nil
            rest = text[...]
            return
        }
        scheme = text[..<end].lowercased()
        var remainder = text[text.index(after: end)...]
        guard text[end] == ":", remainder.hasPrefix("//") else {
            rest = remainder
            return
        }
        remainder = remainder.dropFirst(2)
        let authorityEnd = remainder.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? remainder.endIndex
        var authority = remainder[..<authorityEnd]
        rest = remainder[authorityEnd...]
        if let at = authority.lastIndex(of: "@") {
            userinfo = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close]).lowercased()
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon]).lowercased()
            port = Int(authority[authority.index(after: colon)...])
        } else {
            host = authority.lowercased()
        }
        if let name = host, name.hasSuffix(".") { host = String(name.dropLast()) }
    }

    /// True for a host FFmpeg resolves as written: a DNS name, an IPv4 or a bracketed IPv6 literal.
    /// Percent signs, backslashes and other characters are refused rather than guessed at.
    package static func isPlainHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.count <= 253 else { return false }
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        return host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
            && !host.hasPrefix(".") && !host.contains("..")
    }
}
