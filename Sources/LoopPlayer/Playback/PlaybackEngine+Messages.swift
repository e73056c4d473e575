import Foundation
import LoopPlayerCore

/// Short messages over the picture, as mpv's OSD shows them: what a key did, and texts a host or a
/// remote control asks for (`show-text`). Engine thread only.
extension PlaybackEngine {
    /// Shows `text` for `duration` seconds (nil: the window's `osdDuration`) when `level` is within
    /// the window's `osdLevel` (`OnScreenMessages`); it replaces the message shown. An empty text removes it.
    package func showMessage(_ text: String, duration: Double? = nil, level: Int = 1) {
        let osd = OnScreenMessages(configuration.output)
        guard osd.shows(level: level) else { return }
        scene.overlays.showMessage(osd.message(text, duration: duration, at: clock.now))
        redraw()
    }

    static func describePosition(_ position: Double, duration: Double?) -> String {
        OnScreenMessages.describePosition(position, duration: duration)
    }
}
