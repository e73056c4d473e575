import Foundation

/// A JSON document as mpv's IPC carries it: requests, replies, events and property values.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// mpv's nesting limit for a request: deeper input is refused before it is parsed (a line of
    /// `[[[[…` would otherwise recurse as deep as it is long).
    static let maximumDepth = 50

    /// Parses one JSON text; nil if it is not JSON or nests deeper than `maximumDepth`.
    static func parse(_ text: Substring) -> JSONValue? {
        guard nestingDepth(of: text.utf8) <= maximumDepth else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// The deepest nesting of arrays and objects, counted outside strings.
    private static func nestingDepth(of bytes: Substring.UTF8View) -> Int {
        var (depth, deepest, inString, escaped) = (0, 0, false, false)
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// One line of JSON text (no newline inside: strings escape theirs).
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The value as mpv's "flag" (a bool, or `yes`/`no` written as text).
    var flag: Bool? {
        switch self {
        case let .bool(value): value
        case .string("yes"): true
        case .string("no"): false
        default: nil
        }
    }

    /// The value as a number (also written as text, as `set volume 50` sends it).
    var number: Double? {
        switch self {
        case let .int(value): Double(value)
        case let .double(value): value.isFinite ? value : nil
        case let .string(text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// The value as an integer (a whole number, also written as text).
    var integer: Int64? {
        switch self {
        case let .int(value): value
        case let .string(text): Int64(text)
        default: nil
        }
    }

    /// The value as text.
    var text: String? {
        if case let .string(text) = self { return text }
        return nil
    }
}

extension JSONValue: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .int(value): try container.encode(value)
        case let .double(value): if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }
}
