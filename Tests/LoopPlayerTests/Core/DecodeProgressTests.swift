@testable import LoopPlayer
import XCTest

/// `DecodeProgress`: when a source counts as undecodable, mid-stream and at its end. Ticks of 1 ms.
final class DecodeProgressTests: XCTestCase {
    static let tick = 0.001

    /// What happened, in order.
    enum Event {
        case packets(Int, firstPTS: Int64?, step: Int64 = 0)
        case picture
        case passEnded
        case restart
    }

    struct Row {
        var name: String
        var events: [Event]
        var verdict: String?
        var verdictAtEnd: String?
        var line: UInt = #line
    }

    static let rows: [Row] = [
        Row(name: "nothing yet", events: [], verdict: nil, verdictAtEnd: "the stream holds no packets"),
        Row(name: "a few packets", events: [.packets(5, firstPTS: 0, step: 40)], verdict: nil,
            verdictAtEnd: "5 packets, no picture"),
        Row(name: "a picture", events: [.packets(5, firstPTS: 0, step: 40), .picture], verdict: nil, verdictAtEnd: nil),
        Row(name: "a picture, then nothing for ever",
            events: [.packets(5, firstPTS: 0, step: 40), .picture, .packets(2000, firstPTS: 200, step: 40), .passEnded, .passEnded],
            verdict: nil, verdictAtEnd: nil),
        // After pictures: two whole passes of packets without one (damaged later passes) fail.
        Row(name: "a picture, then two barren passes",
            events: [.packets(5, firstPTS: 0, step: 40), .picture, .passEnded, .packets(40, firstPTS: 0, step: 40), .passEnded,
                     .packets(40, firstPTS: 0, step: 40), .passEnded],
            verdict: "80 packets over 2 passes without a picture", verdictAtEnd: nil),
        Row(name: "a picture, one barren pass, a picture again",
            events: [.packets(5, firstPTS: 0, step: 40), .picture, .passEnded, .packets(40, firstPTS: 0, step: 40), .passEnded,
                     .packets(40, firstPTS: 0, step: 40), .picture, .passEnded, .packets(40, firstPTS: 0, step: 40), .passEnded],
            verdict: nil, verdictAtEnd: nil),
        Row(name: "a picture, then two barren passes of few packets",
            events: [.packets(5, firstPTS: 0, step: 40), .picture, .passEnded, .packets(20, firstPTS: 0, step: 40), .passEnded,
                     .packets(20, firstPTS: 0, step: 40), .passEnded],
            verdict: nil, verdictAtEnd: nil),
        // Whole passes without a picture.
        Row(name: "one pass", events: [.packets(30, firstPTS: 0, step: 40), .passEnded], verdict: nil,
            verdictAtEnd: "30 packets, no picture"),
        Row(name: "two passes", events: [.packets(30, firstPTS: 0, step: 40), .passEnded, .packets(30, firstPTS: 1200, step: 40), .passEnded],
            verdict: "60 packets in 2 passes, no picture", verdictAtEnd: "60 packets, no picture"),
        Row(name: "two passes of nothing", events: [.passEnded, .passEnded], verdict: nil,
            verdictAtEnd: "the stream holds no packets"),
        // A long stretch in the middle of a pass: 600 packets and 20 s, both.
        Row(name: "600 packets over 20 s", events: [.packets(599, firstPTS: 0), .packets(1, firstPTS: 20000)],
            verdict: "600 packets over 20 s, no picture", verdictAtEnd: "600 packets, no picture"),
        Row(name: "599 packets over 30 s", events: [.packets(598, firstPTS: 0), .packets(1, firstPTS: 30000)],
            verdict: nil, verdictAtEnd: "599 packets, no picture"),
        Row(name: "600 packets over 19.999 s", events: [.packets(599, firstPTS: 0), .packets(1, firstPTS: 19999)],
            verdict: nil, verdictAtEnd: "600 packets, no picture"),
        Row(name: "seconds are truncated", events: [.packets(599, firstPTS: 1000), .packets(1, firstPTS: 26700)],
            verdict: "600 packets over 25 s, no picture", verdictAtEnd: "600 packets, no picture"),
        // Packets without a timestamp count as packets, not as time.
        Row(name: "untimed packets", events: [.packets(1, firstPTS: 0), .packets(598, firstPTS: nil), .packets(1, firstPTS: 20000)],
            verdict: "600 packets over 20 s, no picture", verdictAtEnd: "600 packets, no picture"),
        Row(name: "no time at all", events: [.packets(5000, firstPTS: nil)], verdict: nil, verdictAtEnd: "5000 packets, no picture"),
        // A restart (seek) clears the evidence but remembers a picture.
        Row(name: "restart after a picture", events: [.packets(3, firstPTS: 0, step: 40), .picture, .restart, .packets(30, firstPTS: 0, step: 40), .passEnded, .passEnded],
            verdict: nil, verdictAtEnd: nil),
        Row(name: "restart without a picture", events: [.packets(30, firstPTS: 0, step: 40), .passEnded, .passEnded, .restart],
            verdict: nil, verdictAtEnd: "the stream holds no packets"),
        Row(name: "restart, then two passes", events: [.packets(30, firstPTS: 0, step: 40), .passEnded, .restart, .packets(10, firstPTS: 0, step: 40), .passEnded, .passEnded],
            verdict: "10 packets in 2 passes, no picture", verdictAtEnd: "10 packets, no picture"),
    ]

    func testEveryRow() {
        for row in Self.rows {
            var progress = DecodeProgress()
            for event in row.events {
                switch event {
                case let .packets(count, firstPTS, step):
                    for index in 0..<count {
                        progress.packet(pts: firstPTS.map { $0 + Int64(index) * step } ?? noTimestamp, tick: Self.tick)
                    }
                case .picture: progress.picture()
                case .passEnded: progress.passEnded()
                case .restart: progress.restart()
                }
            }
            XCTAssertEqual(progress.verdict(), row.verdict, row.name, line: row.line)
            XCTAssertEqual(progress.verdictAtEnd(), row.verdictAtEnd, row.name, line: row.line)
        }
    }

    func testCountersAndRestart() {
        var progress = DecodeProgress()
        progress.packet(pts: 0, tick: Self.tick)
        progress.packet(pts: noTimestamp, tick: Self.tick)
        progress.picture()
        progress.picture()
        progress.passEnded()
        XCTAssertEqual(progress.packets, 2)
        XCTAssertEqual(progress.pictures, 2)
        XCTAssertEqual(progress.passesEnded, 1)
        XCTAssertTrue(progress.decodedAny)
        progress.restart()
        XCTAssertEqual(progress.packets, 0)
        XCTAssertEqual(progress.pictures, 0)
        XCTAssertEqual(progress.passesEnded, 0)
        XCTAssertTrue(progress.decodedAny)
    }
}
