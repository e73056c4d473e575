import Foundation

/// Arguments whose bytes are not valid UTF-8. Swift hands them over with U+FFFD in place of the bad
/// bytes, so such a file name can never be opened; loopplay says so, showing the bytes.
enum RawArguments {
    /// The argument as Swift sees it (a `--source=` prefix removed) → its bytes, invalid ones as `\xHH`.
    static let undecodable: [String: String] = {
        var found: [String: String] = [:]
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            var decoded = String(decoding: bytes, as: UTF8.self)
            var shown = escapingInvalidBytes(bytes)
            if decoded.hasPrefix("--source=") {
                decoded.removeFirst("--source=".count)
                shown.removeFirst("--source=".count)
            }
            found[decoded] = shown
        }
        return found
    }()

    /// `bytes` decoded as UTF-8, each byte that is not part of a valid sequence written as `\xHH`.
    static func escapingInvalidBytes(_ bytes: [UInt8]) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        var result = ""
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded):
                result.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case let .error(length):
                for byte in bytes[position..<(position + length)] {
                    result += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
                }
                position += length
            case .emptyInput:
                return result
            }
        }
    }
}
