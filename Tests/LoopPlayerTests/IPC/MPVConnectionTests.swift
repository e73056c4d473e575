import LoopPlayer
@testable import LoopPlayerIPC
import XCTest

/// The IPC's protocol without a socket: mpv's forms of properties, commands and replies.
final class MPVConnectionTests: XCTestCase {
    private func playing() -> PlayerStatus {
        var status = PlayerStatus()
        status.state = .playing
        status.position = 1.5
        status.duration = 4
        status.source = "/media/loop.mp4"
        status.playlistCount = 1
        status.volume = 0.4
        status.brightness = -0.25
        status.contrast = 1.5
        status.audioTrack = 0
        status.audioTrackCount = 2
        status.subtitleTrackCount = 1
        status.looping = true
        return status
    }

    /// The actions of `line`, as text (`PlaybackCommand` is not Equatable: it can carry filters).
    private func actions(_ line: String, _ status: PlayerStatus? = nil) -> [String] {
        var connection = MPVConnection(clientName: "ipc-1")
        return connection.handle(line: Substring(line), status: status ?? playing()).actions.map { "\($0)" }
    }

    private func reply(_ line: String, _ status: PlayerStatus? = nil) -> [String: Any]? {
        var connection = MPVConnection(clientName: "ipc-1")
        return connection.handle(line: Substring(line), status: status ?? playing()).lines.first.flatMap(IPCClient.object)
    }

    func testPropertiesAreReadInMPVsUnits() {
        let status = playing()
        func value(_ property: MPVProperty) -> JSONValue? { try? property.value(in: status).get() }
        XCTAssertEqual(value(.volume), .double(40))
        XCTAssertEqual(value(.brightness), .int(-25))
        XCTAssertEqual(value(.contrast), .int(50))
        XCTAssertEqual(value(.aid), .int(1), "track ids count from 1")
        XCTAssertEqual(value(.sid), .bool(false), "no subtitles: false")
        XCTAssertEqual(value(.loopFile), .string("inf"))
        XCTAssertEqual(value(.loopPlaylist), .bool(false))
        XCTAssertEqual(value(.percentPos), .double(37.5))
        XCTAssertEqual(value(.filename), .string("loop.mp4"))
        XCTAssertEqual(value(.playlistPos), .int(0), "one source is item 0 of 1")
        XCTAssertEqual(value(.eofReached), .bool(false))
        var idle = PlayerStatus()
        idle.state = .idle
        XCTAssertEqual(MPVProperty.timePos.value(in: idle).failure, .propertyUnavailable)
        XCTAssertEqual(MPVProperty.duration.value(in: idle).failure, .propertyUnavailable)
        XCTAssertEqual(MPVProperty.playlistPos.value(in: idle).successValue, .int(-1))
        XCTAssertEqual(PlayerProperty.fileName(of: "https://cdn.example/live/master.m3u8?token=1"), "master.m3u8")
    }

    func testSettingAPropertyBecomesACommand() {
        XCTAssertEqual(actions(#"{"command": ["set_property", "pause", true]}"#), [#"change("pause", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.flag(true)))"#])
        XCTAssertEqual(actions("set pause no"), [#"change("pause", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.flag(false)))"#], "a text command's yes/no")
        XCTAssertEqual(actions("set volume 50"), [#"change("volume", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.number(0.5)))"#])
        XCTAssertEqual(actions("set brightness 50"), [#"change("brightness", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.number(0.5)))"#])
        XCTAssertEqual(actions("set contrast -50"), [#"change("contrast", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.number(0.5)))"#])
        XCTAssertEqual(actions("set aid 2"), [#"change("aid", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.integer(1)))"#])
        XCTAssertEqual(actions("set sid no"), [#"change("sid", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.off))"#])
        XCTAssertEqual(actions("set loop-file no"), [#"change("loop-file", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.off))"#])
        XCTAssertEqual(actions("set loop-playlist inf"), [#"change("loop-playlist", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.forever))"#])
        XCTAssertEqual(actions("set time-pos 3"), [#"change("time-pos", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.number(3.0)))"#])
        XCTAssertEqual(reply(#"{"command": ["set_property", "aid", 3]}"#)?["error"] as? String, "error accessing property",
                       "a track that is not there")
        XCTAssertEqual(reply(#"{"command": ["set_property", "playlist-pos", 1]}"#)?["error"] as? String, "error accessing property")
        XCTAssertEqual(reply(#"{"command": ["set_property", "volume", "loud"]}"#)?["error"] as? String,
                       "unsupported format for accessing property")
    }

    /// Loop counts, as mpv has them (issue 35: `loop-file 2` was taken as `inf`): `loop-file` N plays
    /// N more passes and reads what is left; `loop-playlist` N counts passes, this one included.
    func testLoopCountsAreKeptAndReadAsWhatIsLeft() {
        XCTAssertEqual(actions("set loop-file 2"), [#"change("loop-file", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.integer(2)))"#])
        XCTAssertEqual(actions(#"{"command": ["set_property", "loop-file", "3"]}"#), [#"change("loop-file", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.integer(3)))"#])
        XCTAssertEqual(actions("set loop-file 0"), [#"change("loop-file", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.off))"#])
        XCTAssertEqual(actions("set loop-file yes"), [#"change("loop-file", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.forever))"#])
        XCTAssertEqual(actions("set loop-file inf"), [#"change("loop-file", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.forever))"#])
        XCTAssertEqual(actions("set loop-playlist 3"), [#"change("loop-playlist", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.integer(3)))"#])
        XCTAssertEqual(actions("set loop-playlist 1"), [#"change("loop-playlist", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.integer(1)))"#], "one pass: no more")
        XCTAssertEqual(actions("set loop-playlist no"), [#"change("loop-playlist", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.off))"#])
        XCTAssertEqual(reply(#"{"command": ["set_property", "loop-file", -2]}"#)?["error"] as? String, "error accessing property")
        XCTAssertEqual(reply(#"{"command": ["set_property", "loop-file", "often"]}"#)?["error"] as? String,
                       "unsupported format for accessing property")
        var status = playing()
        status.loopsLeft = 2
        XCTAssertEqual(try MPVProperty.loopFile.value(in: status).get(), .int(2))
        XCTAssertEqual(reply(#"{"command": ["get_property_string", "loop-file"]}"#, status)?["data"] as? String, "2")
        status.looping = false
        XCTAssertEqual(try MPVProperty.loopFile.value(in: status).get(), .bool(false))
        status.loopingPlaylist = true
        XCTAssertEqual(try MPVProperty.loopPlaylist.value(in: status).get(), .string("inf"))
        (status.playlistPasses, status.playlistPass) = (3, 2)
        XCTAssertEqual(try MPVProperty.loopPlaylist.value(in: status).get(), .int(2), "this pass and one more")
        status.playlistPass = 3
        XCTAssertEqual(try MPVProperty.loopPlaylist.value(in: status).get(), .bool(false), "the last pass reads no")
    }

    /// What controllers use (issue 35): mpv's named form, `stop`, the playlist commands, `cycle-values`,
    /// `keypress`, and the `playlist`, `track-list`, `width`/`height` and `time-remaining` properties.
    func testControllersCommandsAndPropertiesAreThere() {
        XCTAssertEqual(actions(#"{"command": {"name": "loadfile", "url": "/media/b.mp4", "flags": "append"}}"#),
                       [#"load("/media/b.mp4", append: true)"#])
        XCTAssertEqual(actions(#"{"command": {"name": "seek", "target": 3, "flags": "absolute"}}"#),
                       ["send(LoopPlayer.PlaybackCommand.seek(to: 3.0, play: nil))"])
        XCTAssertEqual(actions(#"{"command": {"name": "show-text", "text": "hi", "level": 2}}"#).count, 1, "a stand-in for the duration")
        XCTAssertEqual(reply(#"{"command": {"name": "seek", "speed": 3}}"#)?["error"] as? String, "invalid parameter", "not seek's")
        XCTAssertEqual(reply(#"{"command": {"name": "seek", "flags": "absolute"}}"#)?["error"] as? String, "invalid parameter",
                       "no target")
        XCTAssertEqual(actions("stop"), ["stop"])
        XCTAssertEqual(actions("playlist-remove current"), ["stop"], "a single source going: nothing plays")
        var list = playing()
        (list.playlistItems, list.playlistIndex, list.playlistCount) = (["/media/a.mp4", "/media/loop.mp4", "/media/c.mp4"], 1, 3)
        XCTAssertEqual(actions("playlist-remove 2", list), ["send(LoopPlayer.PlaybackCommand.remove(at: 2))"])
        XCTAssertEqual(actions("playlist-remove current", list), ["send(LoopPlayer.PlaybackCommand.remove(at: 1))"])
        XCTAssertEqual(reply(#"{"command": ["playlist-remove", 3]}"#, list)?["error"] as? String, "error running command")
        XCTAssertEqual(actions("playlist-clear", list), ["send(LoopPlayer.PlaybackCommand.clearPlaylist)"])
        XCTAssertEqual(actions("cycle-values volume 20 40 60"), [#"change("volume", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.number(0.6)))"#], "40 → 60")
        XCTAssertEqual(actions("cycle-values !reverse volume 20 40 60"), [#"change("volume", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.number(0.2)))"#])
        XCTAssertEqual(actions("cycle-values speed 2 3"), [#"change("speed", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.number(2.0)))"#], "not listed: the first")
        XCTAssertEqual(actions("cycle-values loop-file inf no"), [#"change("loop-file", LoopPlayer.PropertyChange.set(LoopPlayer.PropertyValue.off))"#])
        // A key does what it does in the window (`InputMap.mpv`), whose bindings are mpv's.
        XCTAssertEqual(actions(#"{"command": ["keypress", "SPACE"]}"#), ["press(LoopPlayerOutput.PlayerAction.togglePause)"])
        XCTAssertEqual(actions("keypress RIGHT"), ["press(LoopPlayerOutput.PlayerAction.seek(by: 5.0))"])
        XCTAssertEqual(actions("keypress L"), ["press(LoopPlayerOutput.PlayerAction.toggleLoop)"], "shift+l")
        XCTAssertEqual(actions("keypress /"), ["press(LoopPlayerOutput.PlayerAction.adjustVolume(-0.02))"])
        XCTAssertEqual(actions("keypress ENTER"), ["press(LoopPlayerOutput.PlayerAction.nextItem)"])
        XCTAssertEqual(actions("keypress q"), ["press(LoopPlayerOutput.PlayerAction.quit)"])
        XCTAssertEqual(actions("keypress ESC"), [], "mpv's leaves fullscreen: never a quit here")
        XCTAssertEqual(reply(#"{"command": ["keypress", "F13"]}"#)?["error"] as? String, "success", "an unbound key does nothing")
        let entries = try? MPVProperty.playlist.value(in: list).get()
        XCTAssertEqual(entries, .array([
            .object(["filename": .string("/media/a.mp4"), "id": .int(1)]),
            .object(["filename": .string("/media/loop.mp4"), "id": .int(2), "current": .bool(true), "playing": .bool(true)]),
            .object(["filename": .string("/media/c.mp4"), "id": .int(3)]),
        ]))
        XCTAssertEqual(try? MPVProperty.playlist.value(in: playing()).get(),
                       .array([.object(["filename": .string("/media/loop.mp4"), "id": .int(1), "current": .bool(true), "playing": .bool(true)])]),
                       "a single source is a list of one")
        var sized = playing()
        sized.videoSize = PixelSize(width: 320, height: 180)
        XCTAssertEqual(try? MPVProperty.width.value(in: sized).get(), .int(320))
        XCTAssertEqual(try? MPVProperty.height.value(in: sized).get(), .int(180))
        XCTAssertEqual(MPVProperty.width.value(in: playing()).failure, .propertyUnavailable)
        XCTAssertEqual(try? MPVProperty.timeRemaining.value(in: sized).get(), .double(2.5))
        guard case let .array(tracks)? = try? MPVProperty.trackList.value(in: sized).get() else { return XCTFail("no track-list") }
        XCTAssertEqual(tracks.count, 4, "the picture, two audio tracks, one subtitle track")
        XCTAssertEqual(tracks[1], .object(["type": .string("audio"), "id": .int(1), "selected": .bool(true)]))
        XCTAssertEqual(tracks[3], .object(["type": .string("sub"), "id": .int(1), "selected": .bool(false)]))
        let names = (try? MPVProperty.propertyList.value(in: sized).get()).flatMap { value -> [JSONValue]? in
            if case let .array(names) = value { return names }
            return nil
        } ?? []
        for name in ["playlist", "track-list", "width", "height", "time-remaining"] { XCTAssertTrue(names.contains(.string(name)), name) }
        XCTAssertEqual(MPVIPCServer.expandingHome("~/mpv.sock"), (ProcessInfo.processInfo.environment["HOME"] ?? "~") + "/mpv.sock")
        XCTAssertEqual(MPVIPCServer.expandingHome("/tmp/~x.sock"), "/tmp/~x.sock")
    }

    func testSeeksAreWorkedOutFromThePosition() {
        // Relative seeks are worked out by the player when it applies them; every seek keeps it
        // playing or paused (play: nil).
        XCTAssertEqual(actions("seek 1"), ["send(LoopPlayer.PlaybackCommand.seekBy(1.0))"], "relative by default")
        XCTAssertEqual(actions("seek -1 relative+exact"), ["send(LoopPlayer.PlaybackCommand.seekBy(-1.0))"])
        XCTAssertEqual(actions("seek 3 absolute"), ["send(LoopPlayer.PlaybackCommand.seek(to: 3.0, play: nil))"])
        XCTAssertEqual(actions("seek 25 absolute-percent"), ["send(LoopPlayer.PlaybackCommand.seek(to: 1.0, play: nil))"])
        XCTAssertEqual(actions("seek 10 relative-percent"), ["send(LoopPlayer.PlaybackCommand.seekBy(0.4))"])
        var idle = PlayerStatus()
        idle.state = .idle
        XCTAssertEqual(reply(#"{"command": ["seek", 1]}"#, idle)?["error"] as? String, "error running command", "nothing plays")
    }

    func testCycleFlipsFlagsAndStepsThroughTracksAndNone() {
        XCTAssertEqual(actions("cycle pause"), [#"change("pause", LoopPlayer.PropertyChange.cycle(down: false))"#], "two in a row cancel")
        XCTAssertEqual(actions("cycle loop-file"), [#"change("loop-file", LoopPlayer.PropertyChange.cycle(down: false))"#])
        XCTAssertEqual(actions("cycle aid"), [#"change("aid", LoopPlayer.PropertyChange.cycle(down: false))"#])
        var second = playing()
        second.audioTrack = 1
        XCTAssertEqual(actions("cycle aid", second), [#"change("aid", LoopPlayer.PropertyChange.cycle(down: false))"#], "after the last: none")
        XCTAssertEqual(actions("cycle aid down"), [#"change("aid", LoopPlayer.PropertyChange.cycle(down: true))"#])
        XCTAssertEqual(actions("add volume -50"), [#"change("volume", LoopPlayer.PropertyChange.add(-0.5))"#], "kept in range when applied")
        // A relative seek, applied from where the player is then: two in a row move twice.
        XCTAssertEqual(actions("add time-pos 1"), ["send(LoopPlayer.PlaybackCommand.seekBy(1.0))"])
        XCTAssertEqual(actions("add playback-time -2.5"), ["send(LoopPlayer.PlaybackCommand.seekBy(-2.5))"])
    }

    func testRepliesCarryTheRequestIDAndSkipNothingElse() {
        let answer = reply(#"{"command": ["get_property", "volume"], "request_id": "seven"}"#)
        XCTAssertEqual(answer?["request_id"] as? String, "seven")
        XCTAssertEqual(answer?["data"] as? Double, 40)
        XCTAssertEqual(answer?["error"] as? String, "success")
        XCTAssertEqual(reply(#"{"command": ["get_property", "volume"]}"#)?["request_id"] as? Int, 0, "none sent: 0, as mpv answers")
        var connection = MPVConnection(clientName: "ipc-1")
        XCTAssertTrue(connection.handle(line: "", status: playing()).lines.isEmpty)
        XCTAssertTrue(connection.handle(line: "  # a comment", status: playing()).lines.isEmpty)
        XCTAssertTrue(connection.handle(line: "cycle pause", status: playing()).lines.isEmpty, "text commands get no reply")
        for good in [#"["show-text", "hello"]"#, #"["show-text", "hello", 2000]"#, #"["show-text", "hello", "-1", "2"]"#] {
            XCTAssertEqual(reply(#"{"command": \#(good)}"#)?["error"] as? String, "success", good)
        }
        for bad in [#"["show-text"]"#, #"["show-text", "hello", "soon"]"#, #"["show-text", "hello", 5000000]"#,
                    #"["show-text", "hello", 100, 7]"#, #"["show-text", 5]"#, #"["show-text", "a", 1, 1, 1]"#] {
            XCTAssertEqual(reply(#"{"command": \#(bad)}"#)?["error"] as? String, "invalid parameter", bad)
        }
        var shower = MPVConnection(clientName: "ipc-1")
        let actions = shower.handle(line: #"{"command": ["show-text", "hi", 2500, 2]}"#, status: playing()).actions
        guard case let .send(.showText(text, duration, level))? = actions.first else { return XCTFail("\(actions)") }
        XCTAssertEqual(text, "hi")
        XCTAssertEqual(duration, 2.5)
        XCTAssertEqual(level, 2)
        var idle = PlayerStatus()
        idle.state = .idle
        let unavailable = reply(#"{"command": ["get_property_string", "duration"]}"#, idle)
        XCTAssertEqual(unavailable?["error"] as? String, "success", "mpv's answer: no text")
        XCTAssertTrue(unavailable?["data"] is NSNull)
        var full = MPVConnection(clientName: "ipc-1")
        let refused = full.handle(line: "{\"command\": [\"set_property\", \"pause\", true]}", status: playing(), acceptsCommands: false)
        XCTAssertEqual(refused.actions.count, 0)
        XCTAssertEqual(refused.lines.first.flatMap(IPCClient.object)?["error"] as? String, "error running command",
                       "the player's queue is full")
        XCTAssertEqual(reply(#"{"command": ["set_property", "speed", 16.5]}"#)?["error"] as? String, "error accessing property")
        XCTAssertEqual(reply(#"{"command": ["set_property", "speed", 0]}"#)?["error"] as? String, "success",
                       "0 holds the picture (mpv refuses it)")
    }

    func testObservedPropertiesAreSentOnlyWhenTheyChange() {
        var connection = MPVConnection(clientName: "ipc-1")
        let first = connection.handle(line: #"{"command": ["observe_property", 4, "mute"]}"#, status: playing()).lines
        XCTAssertEqual(first.count, 2, "the reply, then the value at once")
        XCTAssertEqual(IPCClient.object(first[1])?["data"] as? Bool, false)
        XCTAssertEqual(connection.statusChanged(playing()), [], "nothing changed")
        var idle = PlayerStatus()
        idle.state = .idle
        var other = MPVConnection(clientName: "ipc-2")
        let unavailable = other.handle(line: #"{"command": ["observe_property", 9, "duration"]}"#, status: idle).lines
        XCTAssertNil(IPCClient.object(unavailable[1])?["data"], "unavailable: no data, as mpv sends it")
        var muted = playing()
        muted.muted = true
        muted.position = 2
        let changes = connection.statusChanged(muted).compactMap(IPCClient.object)
        XCTAssertEqual(changes.count, 1, "mute only: the position is not observed")
        XCTAssertEqual(changes.first?["id"] as? Int, 4)
        XCTAssertEqual(changes.first?["data"] as? Bool, true)
        _ = connection.handle(line: #"{"command": ["unobserve_property", 4]}"#, status: muted)
        XCTAssertEqual(connection.statusChanged(playing()), [])
        let text = connection.handle(line: #"{"command": ["observe_property_string", 5, "volume"]}"#, status: muted).lines
        XCTAssertEqual(IPCClient.object(text[1])?["data"] as? String, "40.000000", "as get_property_string gives it")
        XCTAssertEqual(reply(#"{"command": ["unobserve_property", 99]}"#)?["error"] as? String, "success", "as mpv answers")
    }

    func testTextCommandsSplitLikeInputConf() {
        XCTAssertEqual(MPVConnection.words(of: #"loadfile "/media/a b.mp4" append"#), ["loadfile", "/media/a b.mp4", "append"])
        XCTAssertEqual(MPVConnection.words(of: "set  volume\t50 "), ["set", "volume", "50"])
        XCTAssertEqual(MPVConnection.words(of: "show-text ''"), ["show-text", ""])
        XCTAssertNil(MPVConnection.words(of: #"loadfile "open"#))
    }

    func testJSONKeepsFlagsAndNumbersApartAndRefusesDeepNesting() {
        XCTAssertEqual(JSONValue.parse("true"), .bool(true))
        XCTAssertEqual(JSONValue.parse("1"), .int(1))
        XCTAssertEqual(JSONValue.parse("1.5"), .double(1.5))
        XCTAssertEqual(JSONValue.parse(#"{"a": [null, "b"]}"#), .object(["a": .array([.null, .string("b")])]))
        XCTAssertNotNil(JSONValue.parse(Substring(String(repeating: "[", count: 50) + String(repeating: "]", count: 50))))
        XCTAssertNil(JSONValue.parse(Substring(String(repeating: "[", count: 51) + String(repeating: "]", count: 51))))
        XCTAssertNotNil(JSONValue.parse(#"["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]"#), "brackets in a string do not nest")
        XCTAssertEqual(JSONValue.string("/a/b").encoded, #""/a/b""#)
        XCTAssertEqual(JSONValue.object(["a": .double(.nan)]).encoded, #"{"a":null}"#, "no JSON form: null, the rest kept")
    }
}

private extension Result {
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }

    var successValue: Success? { try? get() }
}

/// The properties these tests read, by mpv's names.
private extension MPVProperty {
    static func named(_ name: String) -> MPVProperty {
        guard let property = MPVProperty(named: name) else { preconditionFailure("no property \(name)") }
        return property
    }

    static let aid = named("aid"), sid = named("sid"), volume = named("volume"), brightness = named("brightness")
    static let contrast = named("contrast"), eofReached = named("eof-reached"), filename = named("filename")
    static let loopFile = named("loop-file"), loopPlaylist = named("loop-playlist"), percentPos = named("percent-pos")
    static let playlistPos = named("playlist-pos"), duration = named("duration"), height = named("height"), width = named("width")
    static let playlist = named("playlist"), propertyList = named("property-list"), timePos = named("time-pos")
    static let timeRemaining = named("time-remaining"), trackList = named("track-list")
}
