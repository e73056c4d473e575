import Foundation
import LoopPlayerCore

/// Short messages over the picture, as mpv's OSD shows them: what a key did, and texts a host or a
/// remote control asks for (`show-text`). Engine thread only.
extension PlaybackEngine {
    /// The window's message level and duration; other outputs show level-1 messages for 1 s.
    private var messageOptions: (level: Int, duration: Double) {
        if case let .window(options) = configuration.output { return (options.osdLevel, options.osdDuration) }
        return (1, WindowOptions.defaultOSDDuration)
    }

    /// Shows `text` for `duration` seconds (nil: the window's `osdDuration`) when `level` is within
    /// the window's `osdLevel`; it replaces the message shown. An empty text removes it.
    package func showMessage(_ text: String, duration: Double? = nil, level: Int = 1) {
        let options = messageOptions
        guard level <= options.level else { return }
        scene.overlays.showMessage(text.isEmpty ? nil
            : OnScreenMessage(text, shownAt: clock.now, duration: duration ?? options.duration))
        redraw()
    }

    /// What a key did, as mpv says it on screen (nil: nothing to say, e.g. fullscreen or quit).
    func message(after action: PlayerAction, seekTarget: Double?, snapshotPath: String?) -> String? {
        switch action {
        case .togglePause: return isPaused ? "Paused" : "Playing"
        case .seek: return seekTarget.map { Self.describePosition($0, duration: duration) }
        case .toggleLoop: return "Loop: " + (isLooping ? "yes" : "no")
        case .adjustContrast: return "Contrast: " + String(format: "%.2f", filters.adjustment.contrast)
        case .adjustBrightness: return "Brightness: " + String(format: "%+.2f", filters.adjustment.brightness)
        case .clearFilters: return "Filters: none"
        case .toggleMute: return "Mute: " + (isMuted ? "yes" : "no")
        case .adjustVolume: return "Volume: \(Int((volume * 100).rounded())) %"
        case .scaleSpeed, .resetSpeed: return "Speed: " + String(format: "%.2f", speed)
        case .cycleAudioTrack: return "Audio: " + (audioTrack?.label ?? "none")
        case .cycleSubtitles: return "Subtitles: " + (subtitleTrack?.label ?? "none")
        case .toggleSubtitles: return "Subtitles: " + (configuration.subtitles.visible ? "visible" : "hidden")
        case .snapshot: return snapshotPath.map { "Snapshot: \($0)" }
        case .toggleFullscreen, .quit, .nextItem, .previousItem: return nil
        }
    }

    /// `00:01:05 / 00:04:00 (27 %)`, as mpv's seek message (the position alone when the length is unknown).
    static func describePosition(_ position: Double, duration: Double?) -> String {
        func clock(_ seconds: Double) -> String {
            // At most 99 999 hours: a length a damaged file announces cannot overflow the conversion.
            let whole = Int(min(max(0, seconds.isFinite ? seconds : 0), 359_999_999))
            return String(format: "%02d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
        }
        guard let duration, duration.isFinite, duration > 0 else { return clock(position) }
        let fraction = position.isFinite ? min(max(position / duration, 0), 1) : 0
        let percent = Int((fraction * 100).rounded())
        return "\(clock(position)) / \(clock(duration)) (\(percent) %)"
    }
}
