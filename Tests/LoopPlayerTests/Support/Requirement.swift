import Foundation
import XCTest

/// A missing tool skips a test on a developer's machine, but fails it in CI (`CI` set), where
/// `scripts/install-deps.sh --tests` installs everything: a silent skip there would hide a regression.
struct MissingRequirement: Error, CustomStringConvertible {
    let description: String
}

func requirementMissing(_ what: String, file: StaticString = #filePath, line: UInt = #line) -> Error {
    if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty, ci != "false" {
        XCTFail("\(what) (CI installs it: scripts/install-deps.sh --tests)", file: file, line: line)
        return MissingRequirement(description: what)
    }
    return XCTSkip(what)
}

/// Skips (or in CI fails) unless `condition` holds.
func require(_ condition: Bool, _ what: @autoclosure () -> String,
             file: StaticString = #filePath, line: UInt = #line) throws {
    if !condition { throw requirementMissing(what(), file: file, line: line) }
}
