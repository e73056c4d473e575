import Foundation

/// A loop's timeline shared by several players (a video wall, a row of kiosks): pass *k* starts at
/// `epoch + k × period` on the system clock (`CLOCK_REALTIME`, which chrony or PTP keep in step
/// across machines), so frame *f* of pass *k* is due at `epoch + k × period + f / fps` everywhere.
/// Pure: the times are handed in (read on the engine's `SystemClock`).
package struct SharedTimeline: Sendable, Equatable {
    /// Unix seconds (`CLOCK_REALTIME`) when pass 0 starts.
    package let epoch: Double

    /// Epochs accepted: 1970 to 2262 (the nanoseconds of an Int64), finite.
    package static let epochRange = 0.0...9_200_000_000.0

    package init(epoch: Double) { self.epoch = epoch }

    /// Where a player joining at system time `now` starts, `lead` seconds ahead (time to seek and
    /// decode): the timeline's pass and the position in it. Before the epoch, the start of pass 0.
    /// A position within `lastFrame` of the pass's end goes to the next pass's start instead (a
    /// seek cannot land past the last frame).
    package func joinPlace(at now: Double, period: Double, lead: Double, lastFrame: Double) -> (pass: Int, position: Double) {
        let elapsed = max(0, now + lead - epoch)
        guard period > 0, period.isFinite, elapsed.isFinite else { return (0, 0) }
        var pass = (elapsed / period).rounded(.down)
        var position = elapsed - pass * period
        if position > period - max(lastFrame, 0) {
            pass += 1
            position = 0
        }
        return (Int(min(pass, Double(Int.max / 2))), max(0, position))
    }

    /// When (system time) the timeline's pass `pass` starts.
    package func start(ofPass pass: Int, period: Double) -> Double { epoch + Double(pass) * period }
}
