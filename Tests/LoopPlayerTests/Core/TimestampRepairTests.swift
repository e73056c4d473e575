@testable import LoopPlayer
import XCTest

/// `TimestampRepair`: sequences of (best-effort timestamp or none, duration) → the timestamps handed
/// on, and the offset carried at the end. 90 kHz ticks; frames of 3000 ticks (30 fps).
final class TimestampRepairTests: XCTestCase {
    struct Row {
        var name: String
        var jumpLimit: Int64?
        /// (candidate, duration); the first picture's fallback is `start`.
        var pictures: [(Int64?, Int64)]
        var start: Int64 = 0
        var expected: [Int64]
        var offset: Int64
        var line: UInt = #line
    }

    private static func frames(_ candidates: Int64?...) -> [(Int64?, Int64)] { candidates.map { ($0, 3000) } }

    static let second: Int64 = 90_000
    static let rows: [Row] = [
        // No limit: every timestamp is honoured, jumps and steps back included.
        Row(name: "honoured", jumpLimit: nil, pictures: frames(0, 3000, 9000, 6000, 900_000, 3000),
            expected: [0, 3000, 9000, 6000, 900_000, 3000], offset: 0),
        // Missing timestamps: the start for the first, then the previous one plus its duration.
        Row(name: "first missing", jumpLimit: nil, pictures: frames(nil, nil, 6000, nil), start: 126_000,
            expected: [126_000, 129_000, 6000, 9000], offset: 0),
        Row(name: "middle missing", jumpLimit: second, pictures: frames(0, nil, nil, 9000),
            expected: [0, 3000, 6000, 9000], offset: 0),
        Row(name: "after a zero duration", jumpLimit: nil, pictures: [(0, 0), (nil, 3000), (nil, 3000)],
            expected: [0, 0, 3000], offset: 0),
        // With a limit: a jump forward or back is closed, later pictures keep the shift.
        Row(name: "jump forward", jumpLimit: second, pictures: frames(0, 3000, 903_000, 906_000, nil, 912_000),
            expected: [0, 3000, 6000, 9000, 12000, 15000], offset: 6000 - 903_000),
        Row(name: "jump back", jumpLimit: second, pictures: frames(900_000, 903_000, 0, 3000),
            expected: [900_000, 903_000, 906_000, 909_000], offset: 906_000),
        // Small steps back (B-frames in a pts = dts container) pass: the presenter copes.
        Row(name: "reordering", jumpLimit: second, pictures: frames(0, 9000, 3000, 6000, 18000),
            expected: [0, 9000, 3000, 6000, 18000], offset: 0),
        // The limit itself is no jump; one tick more is.
        Row(name: "forward at the limit", jumpLimit: second, pictures: frames(0, 3000 + second),
            expected: [0, 3000 + second], offset: 0),
        Row(name: "forward past the limit", jumpLimit: second, pictures: frames(0, 3001 + second),
            expected: [0, 3000], offset: -1 - second),
        Row(name: "back at the limit", jumpLimit: second, pictures: frames(second, 0),
            expected: [second, 0], offset: 0),
        Row(name: "back past the limit", jumpLimit: second, pictures: frames(second, -1),
            expected: [second, second + 3000], offset: second + 3001),
        // MPEG-TS's 33-bit clock wraps: the offset becomes exactly 2³³.
        Row(name: "33-bit wrap", jumpLimit: second, pictures: frames(8_589_930_000, 8_589_933_000, 1408, 4408),
            expected: [8_589_930_000, 8_589_933_000, 8_589_936_000, 8_589_939_000], offset: 1 << 33),
        // Two jumps add up.
        Row(name: "two jumps", jumpLimit: second, pictures: frames(0, 3000, 500_000, 503_000, 10, 3010),
            expected: [0, 3000, 6000, 9000, 12000, 15000], offset: 11990),
    ]

    func testEveryRow() {
        for row in Self.rows {
            var repair = TimestampRepair(jumpLimit: row.jumpLimit)
            let result = row.pictures.map { repair.timestamp(for: $0.0, duration: $0.1, start: row.start) }
            XCTAssertEqual(result, row.expected, row.name, line: row.line)
            XCTAssertEqual(repair.offset, row.offset, row.name, line: row.line)
        }
    }

    /// After a seek the past is forgotten: no offset, the next timestamp is taken as it comes, and a
    /// missing one falls back to the start.
    func testResetForgetsThePast() {
        var repair = TimestampRepair(jumpLimit: Self.second)
        _ = repair.timestamp(for: 0, duration: 3000, start: 0)
        XCTAssertEqual(repair.timestamp(for: 5_000_000, duration: 3000, start: 0), 3000)
        XCTAssertNotEqual(repair.offset, 0)
        repair.reset()
        XCTAssertEqual(repair, TimestampRepair(jumpLimit: Self.second))
        XCTAssertEqual(repair.timestamp(for: 7_000_000, duration: 3000, start: 0), 7_000_000)
        XCTAssertEqual(repair.timestamp(for: 7_003_000, duration: 3000, start: 0), 7_003_000)
        repair.reset()
        XCTAssertEqual(repair.timestamp(for: nil, duration: 3000, start: 42), 42)
    }

    func testEqualityComparesTheRemembredPicture() {
        var a = TimestampRepair(jumpLimit: nil)
        var b = TimestampRepair(jumpLimit: nil)
        _ = a.timestamp(for: 0, duration: 3000, start: 0)
        XCTAssertNotEqual(a, b)
        _ = b.timestamp(for: 0, duration: 3000, start: 0)
        XCTAssertEqual(a, b)
        _ = b.timestamp(for: 3000, duration: 1500, start: 0)
        _ = a.timestamp(for: 3000, duration: 3000, start: 0)
        XCTAssertNotEqual(a, b, "durations differ")
        XCTAssertNotEqual(TimestampRepair(jumpLimit: nil), TimestampRepair(jumpLimit: 1))
    }
}
