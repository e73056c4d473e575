import ArgumentParser
import Foundation
import LoopPlayer

/// `--sync-epoch T`: when the shared timeline starts, as Unix seconds (`1798761600.5`), an RFC 3339
/// time (`2027-01-01T00:00:00Z`, `2027-01-01T01:00:00.250+01:00`), or `now`/`now+S`/`now-S`, fixed
/// when loopplay starts (ad hoc, for one player; players that share a timeline are given one number:
/// `T=$(date -d '+10 sec' +%s)`).
enum SyncEpochArgument {
    static func parse(_ text: String, now: Double = Date().timeIntervalSince1970) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let epoch: Double?
        if trimmed.lowercased().hasPrefix("now") {
            let rest = trimmed.dropFirst(3)
            if rest.isEmpty {
                epoch = now
            } else if let sign = rest.first, sign == "+" || sign == "-", let seconds = decimal(rest.dropFirst()), seconds.isFinite,
                      seconds >= 0 {
                epoch = sign == "+" ? now + seconds : now - seconds
            } else {
                epoch = nil
            }
        } else if let seconds = decimal(trimmed), trimmed.first?.isNumber == true {
            epoch = seconds
        } else {
            epoch = rfc3339(trimmed)
        }
        guard let epoch, epoch.isFinite, SyncTimeline.validRange.contains(epoch) else {
            throw ValidationError("invalid --sync-epoch '\(text)': expected Unix seconds (1798761600), an RFC 3339 time "
                + "(2027-01-01T00:00:00Z) or now+SECONDS, between 1970 and 2261")
        }
        return epoch
    }

    /// Decimal digits only (Swift's `Double("0x10")` reads hexadecimal).
    private static func decimal(_ text: Substring) -> Double? {
        text.allSatisfy({ "0123456789.eE+-".contains($0) }) ? Double(text) : nil
    }

    private static func decimal(_ text: String) -> Double? { decimal(Substring(text)) }

    private static func rfc3339(_ text: String) -> Double? {
        // RFC 3339 allows a space for the T and a lower-case t/z.
        var normal = text.uppercased()
        if normal.count > 10, normal[normal.index(normal.startIndex, offsetBy: 10)] == " " {
            normal.replaceSubrange(normal.index(normal.startIndex, offsetBy: 10)...normal.index(normal.startIndex, offsetBy: 10), with: "T")
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: normal) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: normal)?.timeIntervalSince1970
    }
}
