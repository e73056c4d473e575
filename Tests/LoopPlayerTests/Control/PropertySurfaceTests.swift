import Foundation
@testable import LoopPlayer
@testable import LoopPlayerIPC
import XCTest

/// One walk over the property table (`PlayerProperty.all`): every writable property, at the edges of
/// its range and one value past each, through every surface a user has — the IPC's set and get
/// (mpv's forms and units) and its observation, the library's commands, the keys bound to it, and the
/// config line and flag — on a real player playing a real clip with two audio tracks and a subtitle
/// track. A property added to the table is walked without a line here.
final class PropertySurfaceTests: XCTestCase {
    /// A change of a property in mpv's form, and what reading it gives after (nil: refused, the value stays).
    private struct Edge {
        let value: JSONValue
        let reads: JSONValue?
    }

    private var player: ExtVideoPlayer!
    private var remote: PlayerRemote!
    private var runner: Thread?
    private var client = MPVConnection(clientName: "walk")
    private var observer = MPVConnection(clientName: "observer")
    private let finished = AbortFlag()

    override func tearDown() {
        player?.stop()
        _ = waitFor(timeout: 30) { self.finished.isRaised }
        super.tearDown()
    }

    private static func clip() throws -> String {
        let subtitles = NSTemporaryDirectory() + "walk-subtitles.srt"
        try "1\n00:00:00,000 --> 00:00:04,000\nHello\n".write(toFile: subtitles, atomically: true, encoding: .utf8)
        return try TestMedia.clip("walk-two-audio-one-sub.mkv", [
            "-f", "lavfi", "-i", "testsrc2=s=160x90:r=10:d=4",
            "-f", "lavfi", "-i", "sine=f=440:r=48000:d=4", "-f", "lavfi", "-i", "sine=f=1000:r=48000:d=4", "-i", subtitles,
            "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-c:s", "srt"])
    }

    /// The player playing the clip, looping, on its own thread, with its tracks known.
    private func start() throws {
        let clip = try Self.clip()
        player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Unmute() } }
        player.audioOutput = AudioOptions(driver: "dummy")
        remote = PlayerRemote(player: player)
        let (player, finished) = (player!, finished)
        let thread = Thread {
            player.runHeadless()
            finished.raise()
        }
        thread.start()
        runner = thread
        XCTAssertTrue(waitFor(timeout: 60) {
            let status = player.status
            return status.state == .playing && status.audioTrackCount == 2 && status.subtitleTrackCount == 1 && status.duration != nil
        }, "\(player.status)")
    }

    /// Sends what `line` asks over the IPC and waits until the player has carried it out; the reply's error.
    @discardableResult
    private func ipc(_ line: String) -> String? {
        let output = client.handle(line: Substring(line), status: player.status)
        let numbers = output.actions.compactMap { remote.perform($0) }
        settle(upTo: numbers.max())
        return output.lines.first.flatMap(IPCClient.object)?["error"] as? String
    }

    private func settle(upTo number: Int?) {
        guard let number else { return }
        XCTAssertTrue(waitFor(timeout: 30) { self.player.status.commandsApplied >= number }, "command \(number) never applied")
    }

    private func read(_ name: String) -> JSONValue? {
        try? MPVProperty(named: name)?.value(in: player.status).get()
    }

    private func set(_ name: String, _ value: JSONValue) -> String? {
        ipc(JSONValue.object(["command": .array([.string("set_property"), .string(name), value])]).encoded)
    }

    /// mpv's values at the edges of `property`'s range and one past each.
    private func edges(of property: PlayerProperty, _ status: PlayerStatus) -> [Edge] {
        switch property.kind {
        case .flag:
            return [Edge(value: .bool(true), reads: .bool(true)), Edge(value: .bool(false), reads: .bool(false)),
                    Edge(value: .string("maybe"), reads: nil)]
        case let .number(range, unit):
            // Past the edges by a step of mpv's unit (one percent for a gain).
            let step = unit == .rate ? 0.5 : 1
            var edges = [Edge(value: .double(unit.mpv(range.lowerBound)), reads: .double(unit.mpv(range.lowerBound))),
                         Edge(value: .double(unit.mpv(range.lowerBound) - step), reads: nil)]
            if range.upperBound < 1e12 {
                edges += [Edge(value: .double(unit.mpv(range.upperBound)), reads: .double(unit.mpv(range.upperBound))),
                          Edge(value: .double(unit.mpv(range.upperBound) + step), reads: nil)]
            }
            return edges
        case let .choice(values, _):
            return values.map { Edge(value: .int(Int64($0)), reads: .int(Int64($0))) }
                + [values.min()! - 90, values.max()! + 90, 45].map { Edge(value: .int(Int64($0)), reads: nil) }
        case .loopCount:
            let largest = Int64(PropertyLimits.loopCount.upperBound)
            return [Edge(value: .int(largest), reads: .int(largest)), Edge(value: .int(largest + 1), reads: nil),
                    Edge(value: .int(-1), reads: nil), Edge(value: .bool(false), reads: .bool(false)),
                    Edge(value: .string("inf"), reads: .string("inf"))]
        case let .track(count):
            let tracks = Int64(count(status))
            return [Edge(value: .int(1), reads: .int(1)), Edge(value: .int(tracks), reads: .int(tracks)),
                    Edge(value: .int(tracks + 1), reads: nil), Edge(value: .int(0), reads: nil),
                    Edge(value: .bool(false), reads: .bool(false)), Edge(value: .int(1), reads: .int(1))]
        case .index:
            let count = Int64(status.playlistCount)
            return [Edge(value: .int(0), reads: .int(0)), Edge(value: .int(count - 1), reads: .int(count - 1)),
                    Edge(value: .int(count), reads: nil), Edge(value: .int(-1), reads: nil)]
        case .integer, .text, .structure:
            return []
        }
    }

    /// A read back equals what was set (a number as a number: mpv's brightness reads whole); a
    /// position within a frame of the clip (a seek lands on one).
    private func same(_ read: JSONValue?, _ wanted: JSONValue, _ property: PlayerProperty) -> Bool {
        guard let read, let number = read.number, let wanted = wanted.number, case let .number(_, unit) = property.kind else {
            return read == wanted
        }
        guard unit == .seconds || unit == .percent, let duration = player.status.duration else { return number == wanted }
        return abs(number - wanted) <= (unit == .seconds ? 0.1 : 0.1 / duration * 100) + 1e-6
    }

    /// Waits until `name` reads `wanted`: a track or a seek takes effect after its command was
    /// applied (the demuxer switches, the picture comes).
    private func reaches(_ name: String, _ wanted: JSONValue, _ property: PlayerProperty) -> Bool {
        waitFor(timeout: 30) { self.same(self.read(name), wanted, property) && !self.player.status.seeking }
    }

    func testEveryPropertyAtItsEdgesThroughEverySurface() throws {
        try start()
        // Paused, so that nothing moves by itself between a change and its reading (a pass ending
        // counts a loop down); `pause` itself is walked last.
        XCTAssertEqual(set("pause", .bool(true)), "success")
        let writable = PlayerProperty.all.filter(\.isWritable)
        let properties = writable.filter { $0.name != "pause" } + writable.filter { $0.name == "pause" }
        for (id, property) in properties.enumerated() {
            _ = observer.handle(line: Substring(#"{"command": ["observe_property", \#(id), "\#(property.name)"]}"#),
                                status: player.status)
        }
        var walked = 0
        for property in properties {
            for edge in edges(of: property, player.status) {
                let before = read(property.name)
                let error = set(property.name, edge.value)
                let reached = edge.reads.map { reaches(property.name, $0, property) } ?? false
                let after = read(property.name)
                let observed = observer.statusChanged(player.status).filter { $0.contains(#""name":"\#(property.name)""#) }
                if edge.reads != nil {
                    XCTAssertEqual(error, "success", "\(property.name) = \(edge.value)")
                    XCTAssertTrue(reached, "\(property.name) = \(edge.value) reads \(String(describing: after))")
                    if after != before {
                        XCTAssertEqual(observed.count, 1, "\(property.name) = \(edge.value): one property-change")
                    }
                } else {
                    XCTAssertNotEqual(error, "success", "\(property.name) = \(edge.value) must be refused")
                    XCTAssertEqual(after, before, "\(property.name) = \(edge.value): the value stays")
                    XCTAssertTrue(observed.isEmpty, "\(property.name): no change to tell")
                }
                walked += 1
            }
            try walkKeys(property)
        }
        XCTAssertGreaterThanOrEqual(walked, 60, "the walk ran")
        try walkCommands()
    }

    /// Each key bound to a property (mpv's bindings): a step past an edge stays at it; a cycle moves.
    private func walkKeys(_ property: PlayerProperty) throws {
        let keys = InputMap.mpv.bindings.values.filter { $0.propertyChange?.name == property.name }
        for action in Set(keys.map { "\($0)" }).sorted().compactMap({ name in keys.first { "\($0)" == name } }) {
            guard let change = action.propertyChange?.change else { continue }
            switch (change, property.kind) {
            case let (.add(step), .number(range, unit)):
                // At the edge the step points past, it stays.
                let edge = step > 0 ? range.upperBound : range.lowerBound
                guard edge.magnitude < 1e12 else { continue }
                XCTAssertEqual(set(property.name, .double(unit.mpv(edge))), "success")
                XCTAssertTrue(reaches(property.name, .double(unit.mpv(edge)), property))
                press(action)
                XCTAssertTrue(reaches(property.name, .double(unit.mpv(edge)), property), "\(action) at \(edge)")
            case (.add, _), (.set, _):
                let before = read(property.name)
                press(action)
                if case .set = change { XCTAssertNotNil(read(property.name), "\(action)") } else { XCTAssertNotEqual(read(property.name), before) }
            case (.multiply, .number(let range, let unit)):
                XCTAssertEqual(set(property.name, .double(unit.mpv(range.upperBound))), "success")
                press(action)
                if (action.propertyChange.map { if case let .multiply(factor) = $0.change { factor > 1 } else { false } }) == true {
                    XCTAssertTrue(same(read(property.name), .double(unit.mpv(range.upperBound)), property), "\(action) at the top")
                }
            case (.cycle, _):
                let before = read(property.name)
                press(action)
                XCTAssertTrue(waitFor(timeout: 30) { self.read(property.name) != before }, "\(action) moves \(property.name)")
            default:
                XCTFail("\(action) on \(property.name): a change the walk does not know")
            }
        }
    }

    private func press(_ action: PlayerAction) {
        player.press(action)
        settle(upTo: player.commandsSent)
    }

    /// The library's commands clamp to the table's ranges (as they promise) and refuse what no
    /// range holds (a turn of 45°, a track that is not there), leaving the value.
    private func walkCommands() throws {
        func send(_ command: PlaybackCommand) {
            player.send(command)
            settle(upTo: player.commandsSent)
        }
        send(.pause)  // nothing moves by itself (a pass ending would count the loops down)
        send(.volume(1.5))
        XCTAssertEqual(read("volume"), .double(100))
        send(.volume(-1))
        XCTAssertEqual(read("volume"), .double(0))
        send(.playbackSpeed(40))
        XCTAssertEqual(read("speed"), .double(16))
        send(.brightness(-3))
        XCTAssertEqual(read("brightness"), .int(-100))
        send(.contrast(9))
        XCTAssertEqual(read("contrast"), .int(300))
        send(.loopTimes(50_000))
        XCTAssertEqual(read("loop-file"), .int(10_000))
        send(.videoRotation(90))
        send(.videoRotation(45))
        XCTAssertEqual(read("video-rotate"), .int(90), "refused: the turn stays")
        let track = read("aid")
        send(.audioTrackNumber(5))
        XCTAssertEqual(read("aid"), track, "no such track: the track stays")
        send(.mute)
        XCTAssertEqual(read("mute"), .bool(true))
    }

    /// The config line and the flag of each property a config sets: its edges taken, one past each a
    /// usage error of one line.
    func testConfigurablePropertiesAtTheirEdgesOnTheCommandLine() throws {
        let clip = try TestMedia.testPattern("walk-config.mp4", frames: 10, codec: TestMedia.h264)
        var checked = 0
        for property in PlayerProperty.configurable {
            guard let flag = property.configName else { continue }
            let values: [(String, Bool)]
            switch property.kind {
            case let .number(range, unit):
                let step = unit == .rate ? 0.5 : 1
                values = [(unit.mpv(range.lowerBound), true), (unit.mpv(range.upperBound), true),
                          (unit.mpv(range.lowerBound) - step, false), (unit.mpv(range.upperBound) + step, false)].map { (String($0), $1) }
            case let .choice(choices, _):
                values = choices.map { (String($0), true) } + [(String(choices.max()! + 90), false), ("45", false)]
            default:
                XCTFail("\(property.name): a config kind the walk does not know")
                continue
            }
            for (value, accepted) in values {
                try expect(flag, value, accepted: accepted, clip: clip, property)
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 11, "speed, volume and video-rotate walked")
    }

    private func expect(_ flag: String, _ value: String, accepted: Bool, clip: String, _ property: PlayerProperty) throws {
        XCTAssertEqual((try? property.value(mpvText: value).get()) != nil, accepted, "\(flag)=\(value) as a config line")
        let run = try LoopplayTool.run(["--headless", "--no-config", "--frames", "2", "--\(flag)=\(value)", clip],
                                       environment: ["SDL_AUDIODRIVER": "dummy"])
        if accepted {
            XCTAssertEqual(run.status, 0, "--\(flag) \(value): \(run.stderr)")
        } else {
            XCTAssertEqual(run.status, 64, "--\(flag) \(value) is a usage error (EX_USAGE): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(whereSeparator: \.isNewline).count, 1, "one line: \(run.stderr)")
        }
    }
}
