import Foundation
import LoopPlayer

/// The mpv properties a loop player has, read from `PlayerStatus` and set through `MPVAction`s.
/// Units and forms are mpv's: volume 0…100, brightness and contrast −100…100, track ids from 1,
/// `loop-file` as `"inf"`, the loops left, or `false`.
package enum MPVProperty: String, CaseIterable, Sendable {
    case pause
    case timePos = "time-pos"
    case playbackTime = "playback-time"
    case percentPos = "percent-pos"
    case duration
    case timeRemaining = "time-remaining"
    case path
    case filename
    case loopFile = "loop-file"
    case loopPlaylist = "loop-playlist"
    case mute
    case volume
    case speed
    case playlistPos = "playlist-pos"
    case playlistCount = "playlist-count"
    case playlist
    case trackList = "track-list"
    case width
    case height
    case brightness
    case contrast
    case sid
    case aid
    case eofReached = "eof-reached"
    case idleActive = "idle-active"
    case propertyList = "property-list"
    case commandList = "command-list"
    /// Ours: the player's state as the library names it (`playing`, `paused`, `failed`…).
    case loopplayState = "loopplay-state"

    /// The property's value now, or why there is none.
    package func value(in status: PlayerStatus) -> Result<JSONValue, MPVError> {
        let hasMedia = switch status.state {
        case .idle, .loading, .failed: false
        default: true
        }
        switch self {
        case .pause: return .success(.bool(status.paused))
        case .timePos, .playbackTime:
            return hasMedia ? .success(.double(status.position)) : .failure(.propertyUnavailable)
        case .percentPos:
            guard hasMedia, let duration = status.duration, duration > 0 else { return .failure(.propertyUnavailable) }
            return .success(.double(min(100, status.position / duration * 100)))
        case .duration: return status.duration.map { .success(.double($0)) } ?? .failure(.propertyUnavailable)
        case .timeRemaining:
            guard hasMedia, let duration = status.duration else { return .failure(.propertyUnavailable) }
            return .success(.double(max(0, duration - status.position)))
        case .path: return status.source.map { .success(.string($0)) } ?? .failure(.propertyUnavailable)
        case .filename: return status.source.map { .success(.string(Self.fileName(of: $0))) } ?? .failure(.propertyUnavailable)
        // mpv counts down: the loops left after this pass (its option reads `no` at 0).
        case .loopFile:
            guard status.looping else { return .success(.bool(false)) }
            return .success(status.loopsLeft.map { .int(Int64($0)) } ?? .string("inf"))
        // mpv counts the passes left, this one included (1 reads `no`).
        case .loopPlaylist:
            guard status.loopingPlaylist else { return .success(.bool(false)) }
            guard let passes = status.playlistPasses else { return .success(.string("inf")) }
            let left = passes - status.playlistPass + 1
            return .success(left > 1 ? .int(Int64(left)) : .bool(false))
        case .mute: return .success(.bool(status.muted))
        // Rounded to what a gain in Float holds: 0.4 reads as 40, not 40.0000006.
        case .volume: return .success(.double((Double(status.volume) * 100 * 10_000).rounded() / 10_000))
        case .speed: return .success(.double(status.speed))
        case .playlistPos: return .success(.int(Int64(status.playlistIndex ?? (status.playlistCount > 0 ? 0 : -1))))
        case .playlistCount: return .success(.int(Int64(status.playlistCount)))
        case .playlist: return .success(Self.playlist(in: status))
        case .trackList: return .success(Self.tracks(in: status))
        case .width, .height:
            guard hasMedia, let size = status.videoSize else { return .failure(.propertyUnavailable) }
            return .success(.int(Int64(self == .width ? size.width : size.height)))
        case .brightness: return .success(.int(Int64((Double(status.brightness) * 100).rounded())))
        case .contrast: return .success(.int(Int64((Double(status.contrast) * 100 - 100).rounded())))
        case .sid: return .success(status.subtitleTrack.map { .int(Int64($0 + 1)) } ?? .bool(false))
        case .aid: return .success(status.audioTrack.map { .int(Int64($0 + 1)) } ?? .bool(false))
        case .eofReached: return .success(.bool(status.state == .ended))
        case .idleActive: return .success(.bool(status.state == .idle))
        case .propertyList: return .success(.array(Self.allCases.map { .string($0.rawValue) }))
        case .commandList: return .success(.array(MPVCommandName.allCases.map { .object(["name": .string($0.rawValue)]) }))
        case .loopplayState: return .success(.string(status.state.name))
        }
    }

    /// What setting the property to `value` asks of the player.
    package func actions(setting value: JSONValue, in status: PlayerStatus) -> Result<[MPVAction], MPVError> {
        switch self {
        case .pause:
            guard let paused = value.flag else { return .failure(.propertyFormat) }
            return .success([.send(paused ? .pause : .play)])
        case .timePos, .playbackTime:
            guard let seconds = value.number else { return .failure(.propertyFormat) }
            return .success([.send(.seek(to: seconds, play: nil))])
        case .percentPos:
            guard let percent = value.number else { return .failure(.propertyFormat) }
            guard let duration = status.duration else { return .failure(.propertyUnavailable) }
            return .success([.send(.seek(to: duration * percent / 100, play: nil))])
        case .loopFile:
            return Self.loopCount(value).map { count in
                switch count {
                case nil: [.send(.loop)]
                case 0?: [.send(.unloop)]
                case let count?: [.send(.loopTimes(count))]
                }
            }
        case .loopPlaylist:
            // mpv's count is of passes, this one included: 1 (and 0) plays no more.
            return Self.loopCount(value).map { count in
                guard let count else { return [.loopPlaylist(true)] }
                return [count > 1 ? .loopPlaylist(true, passes: count) : .loopPlaylist(false)]
            }
        case .mute:
            guard let muted = value.flag else { return .failure(.propertyFormat) }
            return .success([.send(muted ? .mute : .unmute)])
        case .volume:
            guard let volume = value.number else { return .failure(.propertyFormat) }
            guard (0...100).contains(volume) else { return .failure(.propertyError) }  // no gain above 1
            return .success([.send(.volume(Float(volume / 100)))])
        case .speed:
            guard let speed = value.number else { return .failure(.propertyFormat) }
            guard Self.speedRange.contains(speed) else { return .failure(.propertyError) }
            return .success([.send(.playbackSpeed(Float(speed)))])
        case .playlistPos:
            guard let index = value.integer else { return .failure(.propertyFormat) }
            guard index >= 0, index < status.playlistCount else { return .failure(.propertyError) }
            return .success(status.playlistIndex == nil ? [] : [.send(.playItem(at: Int(index)))])
        case .brightness, .contrast:
            guard let level = value.number else { return .failure(.propertyFormat) }
            guard (-100...100).contains(level) else { return .failure(.propertyError) }
            return .success([.send(self == .brightness ? .brightness(Float(level / 100)) : .contrast(Float((level + 100) / 100)))])
        case .sid, .aid:
            let count = self == .sid ? status.subtitleTrackCount : status.audioTrackCount
            let track: Int?
            if value.flag == false || value.text == "no" {
                track = nil
            } else if let id = value.integer {
                guard id >= 1, id <= count else { return .failure(.propertyError) }
                track = Int(id - 1)
            } else {
                return .failure(.propertyFormat)
            }
            return .success([.send(self == .sid ? .subtitleTrackNumber(track) : .audioTrackNumber(track))])
        case .duration, .timeRemaining, .path, .filename, .playlistCount, .playlist, .trackList, .width, .height, .eofReached, .idleActive, .propertyList, .commandList, .loopplayState:
            return .failure(.propertyUnavailable)  // read-only, as mpv answers
        }
    }

    /// mpv's range (its minimum, 0.01) up to the player's.
    static let speedRange = 0.01...16.0

    /// mpv's loop forms: `inf`, `yes`, `true`, `force` (forever: nil); `no`, `false` (0); a count
    /// up to mpv's 10000.
    private static func loopCount(_ value: JSONValue) -> Result<Int?, MPVError> {
        if let flag = value.flag { return .success(flag ? nil : 0) }
        if value.text == "inf" || value.text == "force" { return .success(nil) }
        guard let count = value.integer else { return .failure(.propertyFormat) }
        guard (0...10_000).contains(count) else { return .failure(.propertyError) }
        return .success(Int(count))
    }

    /// mpv's `playlist`: each item's `filename`, and `current` and `playing` on the current one.
    private static func playlist(in status: PlayerStatus) -> JSONValue {
        let items = status.playlistItems.isEmpty ? status.source.map { [$0] } ?? [] : status.playlistItems
        let current = status.playlistIndex ?? 0
        let playing = switch status.state {
        case .idle, .failed: false
        default: true
        }
        return .array(items.enumerated().map { index, item in
            var entry: [String: JSONValue] = ["filename": .string(item), "id": .int(Int64(index + 1))]
            if index == current {
                entry["current"] = .bool(true)
                if playing { entry["playing"] = .bool(true) }
            }
            return .object(entry)
        })
    }

    /// mpv's `track-list`: the picture (id 1), then the audio and subtitle tracks, ids from 1 in each kind.
    private static func tracks(in status: PlayerStatus) -> JSONValue {
        func track(_ type: String, _ id: Int, selected: Bool, _ more: [String: JSONValue] = [:]) -> JSONValue {
            .object(more.merging(["type": .string(type), "id": .int(Int64(id)), "selected": .bool(selected)]) { $1 })
        }
        var list: [JSONValue] = []
        if let size = status.videoSize {
            list.append(track("video", 1, selected: true,
                              ["demux-w": .int(Int64(size.width)), "demux-h": .int(Int64(size.height))]))
        }
        list += (0..<status.audioTrackCount).map { track("audio", $0 + 1, selected: status.audioTrack == $0) }
        list += (0..<status.subtitleTrackCount).map { track("sub", $0 + 1, selected: status.subtitleTrack == $0) }
        return .array(list)
    }

    /// The last part of a path or of a URL's path.
    static func fileName(of source: String) -> String {
        if let url = URL(string: source), url.scheme != nil, !url.lastPathComponent.isEmpty { return url.lastPathComponent }
        return (source as NSString).lastPathComponent
    }
}
