import Foundation
@testable import LoopPlayer
import XCTest

/// The playlist holds no engine: what it asks for, step by step, as values.
final class PlaylistRequestTests: XCTestCase {
    private func names(_ requests: [PlaylistRequest]) -> [String] {
        requests.map { request in
            switch request {
            case let .load(source, _): "load \((source as NSString).lastPathComponent)"
            case let .queue(location, _): "queue \((location.description as NSString).lastPathComponent)"
            case .dropQueued: "drop"
            case let .playQueuedNow(orElse): "switch or \(orElse.map(String.init) ?? "none")"
            case let .followSchedule(schedule, item): "schedule \(schedule == nil ? "none" : "\(item)")"
            case let .endSoundWithPicture(ends): "sound ends with picture \(ends)"
            case .leaveTimeline: "leave timeline"
            case .unload: "unload"
            case .wake: "wake"
            case let .count(error): "count \(error.kind)"
            }
        }
    }

    private func items() throws -> [String] {
        let folder = NSTemporaryDirectory() + "playlist-requests/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try ["a.mp4", "b.mp4", "c.mp4"].map { name in
            let path = folder + name
            try Data().write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    func testItLoadsQueuesSwitchesAndSkipsByAsking() throws {
        var events: [PlayerEvent] = []
        let list = PlaylistPlayback(items: try items(), loops: false, ext: "mp4", itemLoops: false,
                                    timeline: nil) { events.append($0) }
        XCTAssertEqual(names(list.attach()), ["sound ends with picture true"])
        XCTAssertEqual(names(list.start(wake: {})), ["load a.mp4"])
        XCTAssertEqual(names(list.loaded()), ["drop", "queue b.mp4"], "the next one opens for a gapless switch")
        XCTAssertEqual(names(list.next()), ["switch or 1"], "the queued one, or item 1 if it cannot play")
        XCTAssertEqual(names(list.handle(.advanced(.file("b.mp4"), afterEnd: true))), [])
        XCTAssertEqual(list.state.current, 1)
        XCTAssertEqual(names(list.handle(.switchSettled)), ["drop", "queue c.mp4"])
        XCTAssertEqual(names(list.handle(.loopingChanged(true))), ["drop"], "a looping item has nothing after it")
        XCTAssertEqual(names(list.handle(.loopingChanged(false))), ["drop", "queue c.mp4"])
        XCTAssertEqual(names(list.handle(.stateChanged(.failed(.sourceNotFound(source: "b.mp4", searched: []))))), ["wake"],
                       "a failed item is skipped at the next tick")
        XCTAssertEqual(names(list.tick(systemNow: 0)), ["switch or 2"])
        XCTAssertEqual(names(list.play(2)), ["load c.mp4"])
        XCTAssertEqual(names(list.loaded()), ["drop"], "the last one: nothing after it")
        XCTAssertEqual(names(list.remove(at: 2)), ["unload"], "the last item gone: nothing plays")
        XCTAssertEqual(names(list.detach()), ["schedule none", "sound ends with picture false", "drop"])
        XCTAssertTrue(events.contains { if case .playlistEnded = $0 { true } else { false } })
        let broken = PlaylistPlayback(items: [try items()[0], "/nowhere/missing.mp4"], loops: false, ext: "mp4", itemLoops: false,
                                      timeline: nil) { _ in }
        _ = broken.start(wake: {})
        XCTAssertEqual(names(broken.loaded()), ["drop", "count sourceNotFound"], "an item that is not there is said, not queued")
    }
}
