import Foundation
import Synchronization
import XCTest
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// Hostile and broken files: each is one `ScheduleError`, quickly, with bounded memory; and a seeded
/// fuzz of a good file never crashes.
final class ScheduleHostileInputTests: XCTestCase {
    /// Parses `yaml` and returns its one error, failing when it parses or takes more than a second.
    private func hostileError(_ yaml: String, _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) -> ScheduleError? {
        let start = ContinuousClock.now
        defer {
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(1), "\(what) took too long", file: file, line: line)
        }
        do {
            _ = try ScheduleFile.parse(yaml: yaml, file: "hostile.yaml", systemTimeZone: ScheduleFixture.utc)
            XCTFail("\(what) parsed", file: file, line: line)
            return nil
        } catch {
            XCTAssertTrue(error.description.hasPrefix("hostile.yaml"), file: file, line: line)
            XCTAssertLessThan(error.description.count, 400, "\(what): a short message", file: file, line: line)
            return error
        }
    }

    /// As many entries as a file may hold, all overlapping, each with its own times: every change
    /// of a day is found (two per entry), in order, and the highest priority is on throughout.
    func testTheMostEntriesAllOverlappingAreEvaluated() throws {
        let count = ScheduleLimits.maxEntries
        let entries = (0..<count).map { index in
            let start = 3600 + index * 7, end = 80_000 - index * 11
            func time(_ seconds: Int) -> String { String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60) }
            return "  - {name: e\(index), from: \"\(time(start))\", to: \"\(time(end))\", priority: \(index % 1000), playlist: [e.mp4]}"
        }.joined(separator: "\n")
        let schedule = try ScheduleFixture.schedule("default: {playlist: [i.mp4]}\nentries:\n" + entries)
        let day = ScheduleEvaluator(schedule).transitions(from: ScheduleFixture.instant("2027-06-01T00:00:00Z"),
                                                          to: ScheduleFixture.instant("2027-06-02T00:00:00Z"))
        // Each later entry opens later with a higher priority and closes earlier: each opening and
        // each closing is a change.
        XCTAssertEqual(day.count, 2 * count)
        XCTAssertEqual(day.map(\.instant), day.map(\.instant).sorted())
        XCTAssertEqual(day[count - 1].name, "e\(count - 1)")
        XCTAssertEqual(day.last?.name, "default")
    }

    func testDeepNesting() {
        XCTAssertEqual(hostileError(String(repeating: "[", count: 200_000), "flow nesting")?.kind, .syntax)
        XCTAssertEqual(hostileError(String(repeating: "{a: ", count: 100_000), "mapping nesting")?.kind, .syntax)
        XCTAssertEqual(hostileError("default:\n" + String(repeating: "- ", count: 300_000), "block nesting")?.kind, .syntax)
        // Deep but within libyaml's limit: refused by the schedule's shape, without walking it.
        let deep = "default: {playlist: " + String(repeating: "[", count: 900) + String(repeating: "]", count: 900) + "}"
        XCTAssertEqual(hostileError(deep, "900 levels")?.description, "hostile.yaml:1: default.playlist[0]: expected text, found a list")
    }

    func testHugeStrings() {
        let name = String(repeating: "n", count: 900_000)
        let error = hostileError("default: {playlist: [i.mp4]}\nentries:\n  - {name: \(name), from: \"07:00\", to: \"07:00\", playlist: [a.mp4]}",
                                 "a huge name")
        XCTAssertEqual(error?.kind, .invalidValue)
        let time = hostileError("default: {playlist: [i.mp4]}\nentries:\n  - {name: a, from: \"\(name)\", to: \"08:00\", playlist: [a.mp4]}",
                                "a huge time")
        XCTAssertEqual(time?.description, "hostile.yaml:3: entries[0].from: \"" + String(repeating: "n", count: 60)
                       + "…\" is not a time of day (HH:MM or HH:MM:SS)")
        let key = String(repeating: "k", count: 500_000)
        XCTAssertEqual(hostileError("default: {playlist: [i.mp4]}\n\(key): 1\n\(key): 2", "a huge duplicated key")?.kind, .syntax)
    }

    func testAliasBombs() {
        // The classic: nine levels of nine aliases (387 million leaves if expanded), here as a key too.
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        let bomb = lines.joined(separator: "\n")
        XCTAssertEqual(hostileError(bomb + "\ndefault: {playlist: *a9}", "billion laughs")?.kind, .unsupportedYAML)
        XCTAssertEqual(hostileError(bomb + "\n? *a9\n: boom", "a bomb as a key")?.kind, .unsupportedYAML)
        XCTAssertEqual(hostileError("x: [1,&a [2]]\ny: {k: *a}", "an anchor after a comma")?.kind, .unsupportedYAML)
        XCTAssertEqual(hostileError("x: {?&a k: v}", "an anchor after a flow key")?.kind, .unsupportedYAML)
        XCTAssertEqual(hostileError("x: \"a\nb\" \n- &a [1]", "an anchor after a multi-line quote")?.kind, .unsupportedYAML)
        XCTAssertEqual(hostileError("? *undefined\n: x", "an alias with no anchor")?.kind, .syntax)
    }

    func testBinaryJunk() {
        var generator = SeededGenerator(seed: 7)
        for round in 0..<50 {
            let bytes = (0..<Int.random(in: 1...4096, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let start = ContinuousClock.now
            XCTAssertThrowsError(try ScheduleFile.parse(contents: Data(bytes), file: "junk.yaml"), "round \(round)")
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
            _ = hostileError(String(decoding: bytes, as: UTF8.self), "junk round \(round) as text")
        }
        XCTAssertEqual(hostileError("default: {playlist: [a\u{0}b]}", "a NUL")?.kind, .syntax)
    }

    func testATwoMebibyteFile() {
        let valid = "default: {playlist: [i.mp4]}\n" + String(repeating: "# padding\n", count: 210_000)
        XCTAssertEqual(hostileError(valid, "2 MiB of comments")?.kind, .tooLarge)
        let start = ContinuousClock.now
        XCTAssertThrowsError(try ScheduleFile.parse(contents: Data(count: 2 << 20), file: "big.yaml")) {
            XCTAssertEqual(($0 as? ScheduleError)?.description, "big.yaml: more than 1048576 bytes, the most a schedule file may hold")
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
    }

    /// 2,000 seeded mutations of a good file: each parses or is one ScheduleError (typed throws: nothing
    /// else can come out), and what parses evaluates over a day.
    func testFuzzedFilesNeverCrash() {
        let seed = """
            timezone: Europe/Berlin
            sync: true
            default:
              playlist: [idle.mp4]
            entries:
              - name: breakfast
                days: [mon, tue, wed, thu, fri]
                from: "07:00"
                to: "11:00"
                playlist: [menu-am.mp4, promo.mp4]
              - name: night
                days: [sat]
                from: "22:00"
                to: "02:00"
                priority: -3
                loop: no
                switch: after-pass
                playlist: [n.mp4]
              - {name: xmas, dates: ["2027-12-20", "2027-12-26"], from: "00:00", to: "24:00", priority: 10, playlist: [x.mp4]}
            """
        let pieces = ["&", "*", "!", "[", "]", "{", "}", ",", ":", "-", " ", "\n", "\"", "'", "#", "?", "|", ">",
                      "24:00", "25:00", "00:00", "2028-02-29", "2027-02-30", "mon", "sun", "~", "null", "yes", "1e9",
                      "\u{0}", "\u{FEFF}", "é", "\t", "%", "@", "`", "-1001", "9999999999999999999999"]
        var generator = SeededGenerator(seed: 40)
        var parsed = 0, refused = 0
        let start = ContinuousClock.now
        for _ in 0..<2_000 {
            var text = Array(seed)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0...text.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: if at < text.count { text.remove(at: at) }
                case 1: text.insert(contentsOf: pieces.randomElement(using: &generator) ?? "", at: at)
                case 2: if at < text.count { text[at] = Character(UnicodeScalar(UInt8.random(in: 32...126, using: &generator))) }
                case 3:
                    let end = min(text.count, at + Int.random(in: 1...40, using: &generator))
                    text.insert(contentsOf: Array(text[at..<end]), at: at)
                default:
                    let end = min(text.count, at + Int.random(in: 1...40, using: &generator))
                    text.removeSubrange(at..<end)
                }
            }
            do {
                let schedule = try ScheduleFile.parse(yaml: String(text), file: "fuzz.yaml", systemTimeZone: ScheduleFixture.utc)
                let evaluator = ScheduleEvaluator(schedule)
                let from = ScheduleFixture.instant("2027-12-25T12:00:00Z")
                _ = evaluator.state(at: from)
                _ = evaluator.transitions(from: from, to: from.addingTimeInterval(86_400))
                parsed += 1
            } catch {
                XCTAssertTrue(error.description.hasPrefix("fuzz.yaml"))
                refused += 1
            }
        }
        XCTAssertEqual(parsed + refused, 2_000)
        XCTAssertGreaterThan(parsed, 20, "some mutations stay valid")
        XCTAssertGreaterThan(refused, 100)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(20))
    }
}

extension ScheduleHostileInputTests {
    /// libyaml allows 1000 levels; Yams recurses on each. Parsing from a thread with a small stack
    /// (a concurrency pool's) must not overflow it: the loader composes on a thread of its own.
    func testDeepNestingFromASmallStack() {
        let deep = "default: {playlist: " + String(repeating: "[", count: 995) + String(repeating: "]", count: 995) + "}"
        let outcome = Outcome()
        let thread = Thread {
            do throws(ScheduleError) {
                _ = try ScheduleFile.parse(yaml: deep, file: "deep.yaml")
            } catch {
                outcome.message.withLock { $0 = error.description }
            }
            outcome.done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        outcome.done.wait()
        XCTAssertEqual(outcome.message.withLock { $0 }, "deep.yaml:1: default.playlist[0]: expected text, found a list")
    }
}

private final class Outcome: Sendable {
    let message = Mutex<String?>(nil)
    let done = DispatchSemaphore(value: 0)
}
