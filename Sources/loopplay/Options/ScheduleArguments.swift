import ArgumentParser
import Foundation
import Glibc
import LoopPlayer

/// A schedule: what plays when (docs/schedule.md): played, or its transitions printed (the
/// operator's dry run).
struct ScheduleArguments: ParsableArguments {
    @Option(help: ArgumentHelp("A schedule file (YAML, docs/schedule.md): play what it says, when it says it (instead of a source). SIGHUP reads it again.",
                               valueName: "file"),
            completion: .file(extensions: ["yaml", "yml"]))
    var schedule: String?

    @Flag(help: "Print each transition of --schedule from --from for --days, one line each (its local time with the offset, the entry, its items), and exit.")
    var printSchedule = false

    @Option(help: ArgumentHelp("Where --print-schedule starts: a date, a wall time in the schedule's zone (2027-03-28T06:00), or RFC 3339 with an offset (default: now).",
                               valueName: "time"))
    var from: String?

    // Unconditional: `--days -1` is a value to refuse by its range, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("How many days --print-schedule covers, 1 to 366 (default 7).", valueName: "n"))
    var days: Int?

    static let dayRange = 1...366

    func validate() throws {
        if let days, !Self.dayRange.contains(days) { throw ValidationError("--days must be 1 to 366, not \(days)") }
        guard schedule != nil else {
            if printSchedule || from != nil || days != nil {
                throw ValidationError("--print-schedule, --from and --days need --schedule FILE")
            }
            return
        }
    }

    /// The schedule file, read and checked (nil without `--schedule`): one error line naming the
    /// file, the line and the key.
    func loaded() throws -> Schedule? {
        guard let path = schedule else { return nil }
        if path.contains("://") { throw ValidationError("--schedule \(path): a schedule is read from a local file in this build") }
        do { return try ScheduleFile.read(path: path) } catch {
            throw ScheduleFileError(line: error.kind == .unreadable ? "--schedule \(error.description)" : error.description)
        }
    }

    /// The transitions from the span's start: the first line is what is on at its start (stamped
    /// with it), then one line per change. A file that cannot be read or checked is one error.
    func transitionLines(now: Date = Date()) throws -> [String] {
        guard let parsed = try loaded() else { return [] }
        var start = now
        if let from {
            guard let instant = WrittenInstant.parse(from, in: parsed.timeZone) else {
                throw ValidationError("--from \(from): not a date, a wall time (2027-03-28T06:00) or RFC 3339 time")
            }
            start = instant
        }
        // Days of the schedule's calendar: the same wall time `days` later (23 or 25 hours across a change).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = parsed.timeZone
        let end = calendar.date(byAdding: .day, value: days ?? 7, to: start) ?? start.addingTimeInterval(Double(days ?? 7) * 86_400)
        let evaluator = ScheduleEvaluator(parsed)
        let opening = ScheduleTransition(instant: start, run: evaluator.state(at: start).current)
        let changes = evaluator.transitions(from: start, to: end).filter { $0.instant > start }
        return ([opening] + changes).map { $0.line(in: parsed.timeZone) }
    }
}

/// A schedule file that cannot be read or does not check: one line of its own (a usage error's exit
/// code, 64, without the pointer to --help: the file is wrong, not the command line).
struct ScheduleFileError: Error, CustomStringConvertible {
    let line: String
    var description: String { line }
}
