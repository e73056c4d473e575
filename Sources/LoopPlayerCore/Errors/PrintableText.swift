/// Text made safe to print as one line on a terminal or in a log.
///
/// ```swift
/// PrintableText.escaping("clip\n\u{1B}[31m.mp4")   // clip\n\x1b[31m.mp4  (backslash escapes, one line)
/// ```
package enum PrintableText {
    /// `text` with its control characters written as escapes: `\n`, `\r`, `\t`, `\xHH` for the
    /// other C0 controls, DEL and the C1 controls, and `\u{HHHH}` for the line and paragraph
    /// separators and the bidirectional overrides (which can make a name read differently from what
    /// it is). A backslash is left alone, so escaping twice changes nothing.
    package static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x100: result += "\\x" + hex(scalar.value, digits: 2)
            default: result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true              // C0, DEL, C1
        case 0x2028, 0x2029: true                        // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: true      // bidirectional embeddings, overrides, isolates
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
