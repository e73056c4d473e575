import Foundation
import LoopPlayer

/// What `loopplay --list-properties` and `--input-cmdlist` print, one line each (as mpv's flags of
/// those names do), from the same tables the IPC answers by; the man page is made from them.
package enum MPVListing {
    /// `volume  read/write  number 0…100`: each property by its mpv name, in mpv's units.
    package static var properties: [String] {
        let width = PlayerProperty.all.map(\.name.count).max() ?? 0
        return PlayerProperty.all.map { property in
            let access = property.isWritable ? "read/write" : "read-only "
            return "\(property.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(access)  \(describe(property.kind))"
        }
    }

    /// Each command by its mpv name, with the names of its arguments where it has mpv's named form.
    package static var commands: [String] {
        MPVCommandName.allCases.map { command in
            ([command.rawValue] + (command.namedArguments?.map(\.name) ?? [])).joined(separator: " ")
        }
    }

    private static func describe(_ kind: PropertyKind) -> String {
        switch kind {
        case .flag: return "flag (yes/no)"
        case let .number(range, unit) where range.upperBound >= .greatestFiniteMagnitude:
            return "number from \(number(unit.mpv(range.lowerBound)))\(suffix(unit))"
        case let .number(range, unit):
            return "number \(number(unit.mpv(range.lowerBound)))…\(number(unit.mpv(range.upperBound)))\(suffix(unit))"
        case let .choice(values, unit): return "one of \(values.map(String.init).joined(separator: ", "))\(suffix(unit))"
        case .loopCount: return "no, inf or a count of 1 or more"
        case .track: return "a track id from 1, or no"
        case .index: return "a playlist position from 0"
        case let .integer(unit): return "integer\(suffix(unit))"
        case .text: return "text"
        case .structure: return "list (JSON)"
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func suffix(_ unit: PropertyUnit) -> String {
        switch unit {
        case .seconds: " s"
        case .percent, .gain: " %"
        case .degrees: "°"
        case .pixels: " px"
        case .rate, .level, .contrast, .count: ""
        }
    }
}
