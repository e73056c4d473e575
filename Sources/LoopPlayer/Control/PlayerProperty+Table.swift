import Foundation

/// The table: every property a player has. Adding one is an entry here and its engine operation.
extension PlayerProperty {
    package static let all: [PlayerProperty] = playback + sound + picture + tracks + playlist + source

    private static let playback: [PlayerProperty] = [
        PlayerProperty(name: "pause", kind: .flag, read: { .flag($0.paused) },
                       write: { value, session in session.engine.setPaused(value == .flag(true)) },
                       leavesTimeline: { value, _ in value == .flag(true) },
                       osd: { $0.paused ? "Paused" : "Playing" }, metric: ("loopplay_paused", "1 while paused.")),
        position("time-pos"),
        position("playback-time"),
        PlayerProperty(name: "percent-pos", kind: .number(0...100, .percent),
                       read: { status in
                           guard status.hasMedia, let duration = status.duration, duration > 0 else { return nil }
                           return .number(min(100, status.position / duration * 100))
                       },
                       write: { value, session in
                           guard let duration = session.engine.duration else { return }
                           session.seek(to: duration * (value.number ?? 0) / 100)
                       },
                       leavesTimeline: { _, _ in true }),
        readOnly("duration", .number(0...Double.greatestFiniteMagnitude, .seconds)) { $0.duration.map(PropertyValue.number) },
        readOnly("time-remaining", .number(0...Double.greatestFiniteMagnitude, .seconds)) { status in
            guard status.hasMedia, let duration = status.duration else { return nil }
            return .number(max(0, duration - status.position))
        },
        PlayerProperty(name: "loop-file", kind: .loopCount,
                       read: { status in status.looping ? status.loopsLeft.map(PropertyValue.integer) ?? .forever : .off },
                       write: { value, session in
                           switch value {
                           case let .integer(count): session.loop(more: count)
                           case .forever: session.loop(more: nil)
                           default: session.loop(more: 0)
                           }
                       },
                       // Looping on is what a synced source does; a synced playlist's item must not loop past its slot.
                       leavesTimeline: { value, status in value != .forever || status.playlistCount > 1 },
                       osd: { "Loop: " + ($0.looping ? "yes" : "no") }, setting: { $0.loop ? .forever : .off }),
        // mpv counts the passes left, this one included (1 reads `no`); the setting counts them all.
        PlayerProperty(name: "loop-playlist", kind: .loopCount,
                       read: { status in
                           guard status.loopingPlaylist else { return .off }
                           guard let passes = status.playlistPasses else { return .forever }
                           let left = passes - status.playlistPass + 1
                           return left > 1 ? .integer(left) : .off
                       },
                       write: { value, session in session.setPlaylistLoops(value) },
                       // A synced playlist's schedule repeats the list: it must not end on one screen.
                       leavesTimeline: { value, _ in value != .forever }),
        PlayerProperty(name: "speed", kind: .number(PropertyLimits.speed, .rate), read: { .number($0.speed) },
                       write: { value, session in session.engine.setSpeed(value.number ?? 1) },
                       leavesTimeline: { value, status in value.number != status.speed },
                       osd: { "Speed: " + String(format: "%.2f", $0.speed) }, configName: "speed", defaultValue: .number(1),
                       metric: ("loopplay_speed", "Playback speed; 1 is normal.")),
    ]

    private static let sound: [PlayerProperty] = [
        PlayerProperty(name: "mute", kind: .flag, read: { .flag($0.muted) },
                       write: { value, session in session.engine.soundControl.setMuted(value == .flag(true)) },
                       osd: { "Mute: " + ($0.muted ? "yes" : "no") }, defaultValue: .flag(false),
                       setting: { .flag($0.mute) }, metric: ("loopplay_muted", "1 while the sound is muted.")),
        PlayerProperty(name: "volume", kind: .number(range(PropertyLimits.volume), .gain), read: { .number(Double($0.volume)) },
                       write: { value, session in session.engine.soundControl.setVolume(Float(value.number ?? 1)) },
                       osd: { "Volume: \(Int((Double($0.volume) * 100).rounded())) %" }, configName: "volume", defaultValue: .number(1),
                       setting: { $0.volume.map { .number(Double($0)) } },
                       metric: ("loopplay_volume", "Linear gain of the sound, 0 to 1.")),
    ]

    private static let picture: [PlayerProperty] = [
        PlayerProperty(name: "brightness", kind: .number(range(PropertyLimits.brightness), .level),
                       read: { .number(Double($0.brightness)) },
                       write: { value, session in
                           session.changeFilters { $0.adjustment.brightness = Float(value.number ?? 0) }
                       },
                       osd: { "Brightness: " + String(format: "%+.2f", $0.brightness) }, defaultValue: .number(0)),
        PlayerProperty(name: "contrast", kind: .number(range(PropertyLimits.contrast), .contrast),
                       read: { .number(Double($0.contrast)) },
                       write: { value, session in
                           session.changeFilters { $0.adjustment.contrast = Float(value.number ?? 1) }
                       },
                       osd: { "Contrast: " + String(format: "%.2f", $0.contrast) }, defaultValue: .number(1)),
        PlayerProperty(name: "video-rotate", kind: .choice(PropertyLimits.videoRotations, .degrees),
                       read: { .integer($0.videoRotation) },
                       write: { value, session in try? session.engine.screen.setVideoRotation(Int(value.number ?? 0)) },
                       osd: { "Rotation: \($0.videoRotation)°" }, configName: "video-rotate", defaultValue: .integer(0),
                       setting: { .integer($0.videoRotation) },
                       metric: ("loopplay_video_rotation_degrees", "The screen's clockwise turn of the picture: 0, 90, 180 or 270.")),
        readOnly("width", .integer(.pixels)) { status in status.hasMedia ? status.videoSize.map { .integer($0.width) } : nil },
        readOnly("height", .integer(.pixels)) { status in status.hasMedia ? status.videoSize.map { .integer($0.height) } : nil },
    ]

    private static let tracks: [PlayerProperty] = [
        PlayerProperty(name: "aid", kind: .track(count: { $0.audioTrackCount }),
                       read: { $0.audioTrack.map(PropertyValue.integer) ?? .off },
                       write: { value, session in
                           let number: Int? = if case let .integer(number) = value { number } else { nil }
                           try? session.engine.soundControl.selectAudioTrack(number: number)
                       },
                       osd: { "Audio: " + ($0.audioTrackLabel ?? "none") }),
        PlayerProperty(name: "sid", kind: .track(count: { $0.subtitleTrackCount }),
                       read: { $0.subtitleTrack.map(PropertyValue.integer) ?? .off },
                       write: { value, session in
                           let choice: SubtitleChoice = if case let .integer(number) = value { .number(number) } else { .off }
                           try? session.engine.screen.setSubtitles(choice)
                       },
                       osd: { "Subtitles: " + ($0.subtitleTrackLabel ?? "none") }),
        PlayerProperty(name: "sub-visibility", kind: .flag, read: { .flag($0.subtitlesVisible) },
                       write: { value, session in session.engine.screen.setSubtitlesVisible(value == .flag(true)) },
                       osd: { "Subtitles: " + ($0.subtitlesVisible ? "visible" : "hidden") }),
        readOnly("track-list", .structure) { .list($0.trackList) },
    ]

    private static let playlist: [PlayerProperty] = [
        PlayerProperty(name: "playlist-pos", kind: .index,
                       read: { .integer($0.playlistIndex ?? ($0.playlistCount > 0 ? 0 : -1)) },
                       write: { value, session in
                           if case let .integer(index) = value { session.setPlaylistPosition(index) }
                       },
                       leavesTimeline: { _, _ in true }),
        readOnly("playlist-count", .integer(.count)) { .integer($0.playlistCount) },
        readOnly("playlist", .structure) { .list($0.playlistEntries) },
    ]

    private static let source: [PlayerProperty] = [
        readOnly("path", .text) { $0.source.map(PropertyValue.text) },
        readOnly("schedule-entry", .text) { $0.schedule.map { .text($0.entry) } },
        readOnly("schedule-next-change", .text) { $0.schedule?.nextChangeText.map(PropertyValue.text) },
        readOnly("filename", .text) { $0.source.map { .text(Self.fileName(of: $0)) } },
        readOnly("eof-reached", .flag) { .flag($0.state == .ended) },
        readOnly("idle-active", .flag) { .flag($0.state == .idle) },
        readOnly("loopplay-state", .text) { .text($0.state.name) },
    ]

    // MARK: Forms of entries

    private static func readOnly(_ name: String, _ kind: PropertyKind,
                                 _ read: @escaping @Sendable (PlayerStatus) -> PropertyValue?) -> PlayerProperty {
        PlayerProperty(name: name, kind: kind, read: read)
    }

    /// The position in the pass: setting it seeks (playing or paused stays), adding seeks from
    /// where the player is when it applies it.
    private static func position(_ name: String) -> PlayerProperty {
        PlayerProperty(name: name, kind: .number(0...Double.greatestFiniteMagnitude, .seconds),
                       read: { $0.hasMedia ? .number($0.position) : nil },
                       write: { value, session in session.seek(to: value.number ?? 0) },
                       adjust: { delta, session in session.seek(by: delta) },
                       leavesTimeline: { _, _ in true },
                       osd: { OnScreenMessages.describePosition($0.position, duration: $0.duration) })
    }

    private static func range(_ limits: ClosedRange<Float>) -> ClosedRange<Double> {
        Double(limits.lowerBound)...Double(limits.upperBound)
    }

    /// The last part of a path or of a URL's path.
    package static func fileName(of source: String) -> String {
        if let url = URL(string: source), url.scheme != nil, !url.lastPathComponent.isEmpty { return url.lastPathComponent }
        return (source as NSString).lastPathComponent
    }
}

extension PlayerStatus {
    /// A source is open (a position and a size mean something).
    var hasMedia: Bool {
        switch state {
        case .idle, .loading, .failed: false
        default: true
        }
    }

    /// mpv's `playlist`: each item's `filename` and `id`, `current` and `playing` on the current one.
    var playlistEntries: [PropertyValue] {
        let items = playlistItems.isEmpty ? source.map { [$0] } ?? [] : playlistItems
        let current = playlistIndex ?? 0
        let playing = switch state {
        case .idle, .failed: false
        default: true
        }
        return items.enumerated().map { index, item in
            var entry: [String: PropertyValue] = ["filename": .text(item), "id": .integer(index + 1)]
            if index == current {
                entry["current"] = .flag(true)
                if playing { entry["playing"] = .flag(true) }
            }
            return .record(entry)
        }
    }

    /// mpv's `track-list`: the picture (id 1), then the audio and subtitle tracks, ids from 1 in each kind.
    var trackList: [PropertyValue] {
        func track(_ type: String, _ id: Int, selected: Bool, _ more: [String: PropertyValue] = [:]) -> PropertyValue {
            .record(more.merging(["type": .text(type), "id": .integer(id), "selected": .flag(selected)]) { $1 })
        }
        var list: [PropertyValue] = []
        if let size = videoSize {
            list.append(track("video", 1, selected: true, ["demux-w": .integer(size.width), "demux-h": .integer(size.height)]))
        }
        list += (0..<audioTrackCount).map { track("audio", $0 + 1, selected: audioTrack == $0) }
        list += (0..<subtitleTrackCount).map { track("sub", $0 + 1, selected: subtitleTrack == $0) }
        return list
    }
}
