import Foundation
import LoopPlayerCore

/// Which short messages are shown over the picture and for how long, as mpv's OSD: the window's
/// `osdLevel` and `osdDuration`; other outputs show level-1 messages for 1 s. What is shown is the
/// overlays' (`OverlayStack.showMessage`).
struct OnScreenMessages {
    let level: Int
    let duration: Double

    init(_ output: EngineConfiguration.Output) {
        if case let .window(options) = output {
            (level, duration) = (options.osdLevel, options.osdDuration)
        } else {
            (level, duration) = (1, WindowOptions.defaultOSDDuration)
        }
    }

    /// Whether a message of `level` is shown at all.
    func shows(level: Int) -> Bool { level <= self.level }

    /// `text` shown from `now` for `duration` seconds (nil: the window's); nil for an empty text,
    /// which removes the message shown.
    func message(_ text: String, duration: Double?, at now: Double) -> OnScreenMessage? {
        text.isEmpty ? nil : OnScreenMessage(text, shownAt: now, duration: duration ?? self.duration)
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
