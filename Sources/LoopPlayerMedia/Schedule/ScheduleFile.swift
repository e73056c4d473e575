import Foundation
import Glibc
import LoopPlayerCore
import Synchronization
import Yams

/// Reads a schedule file, strictly: every unknown key, wrong type or impossible value is one
/// `ScheduleError` naming the file, the line and the key; nothing is dropped silently.
///
/// ```swift
/// let schedule = try ScheduleFile.parse(yaml: text, file: "/srv/menu.yaml")
/// // or: menu.yaml:7: entries[0].from: "25:00" is not a time of day (HH:MM or HH:MM:SS)
/// ```
///
/// Bounded: a file over `ScheduleLimits.maxBytes` or with more than `ScheduleLimits.maxEntries`
/// entries is refused, and so are YAML anchors (`&name`): Yams shares an alias's node, but it hashes
/// mapping keys, so a key that is an alias of nested aliases costs time exponential in the file's
/// size. A schedule never needs one. libyaml stops nesting at 1000 levels.
package enum ScheduleFile {
    /// The schedule in `yaml`; `file` (a path or a URL) names it in errors, and relative playlist items
    /// are resolved against its directory. Without a `timezone` the wall times are in `systemTimeZone`.
    package static func parse(yaml text: String, file: String,
                              systemTimeZone: TimeZone = .current) throws(ScheduleError) -> Schedule {
        // A byte-order mark, as some Windows editors write one, is no part of the YAML.
        let yaml = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let size = yaml.utf8.count
        guard size <= ScheduleLimits.maxBytes else { throw tooLarge(file: file, bytes: size) }
        if let line = YAMLAnchorScan.firstAnchorLine(in: yaml) {
            throw ScheduleError(.unsupportedYAML, file: file, line: line, key: nil,
                                reason: "YAML anchors (&name) and aliases are not supported in a schedule"
                                    + " (write each value out; quote text that starts with &)")
        }
        let result = onRoomyStack { () -> Result<Schedule, ScheduleError> in
            let root: Node?
            do {
                root = try Yams.compose(yaml: yaml)
            } catch {
                return .failure(syntaxError(error, yaml: yaml, file: file))
            }
            do throws(ScheduleError) {
                return .success(try ScheduleReader(file: file, systemTimeZone: systemTimeZone).schedule(from: root))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The schedule in the file at `path` (a regular file, through a symlink too; read at most one
    /// byte past the limit). Opened without waiting and checked on the open file: a FIFO or a device
    /// would never end.
    package static func read(path: String, systemTimeZone: TimeZone = .current) throws(ScheduleError) -> Schedule {
        func unreadable(_ reason: String) -> ScheduleError { ScheduleError(.unreadable, file: path, line: nil, key: nil, reason: reason) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw unreadable("not a regular file") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while data.count <= ScheduleLimits.maxBytes {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw unreadable(String(cString: strerror(errno))) }
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return try parse(contents: data, file: path, systemTimeZone: systemTimeZone)
    }

    /// The schedule in a file's bytes: refused before decoding when too large, and when not UTF-8.
    package static func parse(contents: Data, file: String,
                              systemTimeZone: TimeZone = .current) throws(ScheduleError) -> Schedule {
        guard contents.count <= ScheduleLimits.maxBytes else { throw tooLarge(file: file, bytes: contents.count) }
        guard let yaml = String(validating: contents, as: UTF8.self) else {
            let valid = String(decoding: contents, as: UTF8.self)
            let line = valid.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains("\u{FFFD}") }.map { $0 + 1 }
            throw ScheduleError(.syntax, file: file, line: line, key: nil, reason: "not UTF-8 text")
        }
        return try parse(yaml: yaml, file: file, systemTimeZone: systemTimeZone)
    }

    /// Yams composes, and its nodes are freed, a few stack frames per level of nesting, up to
    /// libyaml's 1000: more than the 512 KiB of a secondary or a concurrency thread holds. So the
    /// work runs on a thread of its own with the stack of a main thread, and the caller waits.
    private static func onRoomyStack<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
        let handoff = Handoff<Value>()
        let thread = Thread {
            handoff.value.withLock { $0 = body() }
            handoff.done.signal()
        }
        thread.stackSize = 8 << 20
        thread.name = "schedule-parse"
        thread.start()
        handoff.done.wait()
        // Set before `done` was signalled; `body()` again only if the thread never ran (it always does).
        return handoff.value.withLock { $0 } ?? body()
    }

    private final class Handoff<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    private static func tooLarge(file: String, bytes: Int) -> ScheduleError {
        ScheduleError(.tooLarge, file: file, line: nil, key: nil,
                      reason: "more than \(ScheduleLimits.maxBytes) bytes, the most a schedule file may hold")
    }

    /// Yams' error as one line: libyaml's problem and where it is.
    private static func syntaxError(_ error: any Error, yaml: String, file: String) -> ScheduleError {
        let (line, problem): (Int?, String)
        switch error as? YamlError {
        case let .scanner(context, text, mark, _), let .parser(context, text, mark, _),
             let .composer(context, text, mark, _):
            (line, problem) = (mark.line, [context?.text, text].compactMap { $0 }.joined(separator: ": "))
        case let .reader(text, offset, _, _):
            (line, problem) = (offset.map { lineNumber(ofCharacter: $0, in: yaml) }, text)
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "\"" + ($0.count > 60 ? $0.prefix(60) + "…" : $0) + "\"" }.joined(separator: ", ")
            (line, problem) = (context.mark.line, "\(keys) appears more than once in one mapping")
        case .memory:
            (line, problem) = (nil, "out of memory")
        default:
            (line, problem) = (nil, String(describing: error))
        }
        return ScheduleError(.syntax, file: file, line: line, key: nil, reason: "not valid YAML: " + problem)
    }

    private static func lineNumber(ofCharacter offset: Int, in text: String) -> Int {
        text.prefix(offset).reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
    }
}

/// Finds, without parsing, every place a YAML anchor may start, and some more: an `&` that begins a
/// node (after a line start, a blank, `[`, `{`, `,`, `:` or a flow key's `?`) and is followed by a name.
/// Quotes and comments are not skipped, so nothing the parser would read as an anchor is missed;
/// text such as `"fish &chips.mp4"` is refused too (`& ` with a blank, or `a&b`, is not).
enum YAMLAnchorScan {
    /// The 1-based line of the first such `&`, or nil.
    static func firstAnchorLine(in yaml: String) -> Int? {
        var line = 1
        var before: UInt8 = 0x0A, beforeThat: UInt8 = 0x0A
        var iterator = yaml.utf8.makeIterator()
        var current = iterator.next()
        while let byte = current {
            let next = iterator.next()
            if byte == UInt8(ascii: "&"), startsNode(after: before, beforeThat), let next, !endsName(next) {
                return line
            }
            if byte == 0x0A { line += 1 }
            (beforeThat, before, current) = (before, byte, next)
        }
        return nil
    }

    private static func startsNode(after byte: UInt8, _ beforeThat: UInt8) -> Bool {
        switch byte {
        // Blanks and line breaks; non-ASCII bytes end libyaml's other breaks (NEL, LS, PS) and the BOM.
        case 0x20, 0x09, 0x0A, 0x0D, 0x80...: true
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"): true
        case UInt8(ascii: "?"): startsNode(after: beforeThat, 0x0A)
        default: false
        }
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: "{"), UInt8(ascii: "}"): true
        default: false
        }
    }
}
