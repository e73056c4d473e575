import CFFmpeg
import Foundation
import Synchronization
import LoopPlayerCore

/// What FFmpeg's interrupt callback checks while it waits on the network: an abort flag, a
/// deadline and a stall limit, on the monotonic clock (or a test's virtual one: the limits are then
/// reached when the test moves its clock, exactly). Records which one fired.
package final class NetworkWatch: Sendable {
    package enum Reason: UInt8 { case none, abort, deadline, stall }

    private let clock: any PlaybackClock
    private let abort: AbortFlag?
    private let start: UInt64
    /// Nanoseconds on the monotonic clock; `UInt64.max` for none. Moved on by `excuse(_:)`.
    private let deadline: Atomic<UInt64>
    private let stallLimit: UInt64
    private let lastProgress: Atomic<UInt64>
    private let fired = Atomic<UInt8>(Reason.none.rawValue)

    /// `timeout`: seconds for the whole operation (nil: none); `stallTimeout`: seconds without
    /// progress (counted from now until the first `progressed()`).
    package init(abort: AbortFlag?, timeout: Double?, stallTimeout: Double, clock: any PlaybackClock = MonotonicClock()) {
        self.clock = clock
        self.abort = abort
        let now = UInt64(max(0, clock.now) * 1e9)
        start = now
        deadline = Atomic(timeout.map { now &+ UInt64(min(max(0, $0), 1e9) * 1e9) } ?? .max)
        stallLimit = UInt64(max(0, stallTimeout) * 1e9)
        lastProgress = Atomic(now)
    }

    /// Bytes arrived: the stall clock starts again.
    package func progressed() { lastProgress.store(now(), ordering: .relaxed) }

    /// Time the caller spent on its own (waiting for room for the bytes) does not count toward
    /// the deadline: it bounds the server's time, not the reader's.
    package func excuse(nanoseconds: UInt64) {
        let current = deadline.load(ordering: .relaxed)
        if current != .max { deadline.store(current &+ nanoseconds, ordering: .relaxed) }
    }

    /// Which limit ended the wait, if one did.
    package var reason: Reason { Reason(rawValue: fired.load(ordering: .acquiring)) ?? .none }

    /// Seconds since the watch started.
    package var elapsed: Double { Double(now() &- start) / 1e9 }

    /// Seconds since the last progress (or the start).
    package var sinceProgress: Double { Double(now() &- lastProgress.load(ordering: .relaxed)) / 1e9 }

    /// True (and remembers why) when FFmpeg should stop waiting.
    package func shouldInterrupt() -> Bool {
        if fired.load(ordering: .relaxed) != Reason.none.rawValue { return true }
        let now = now()
        let reason: Reason
        if abort?.isRaised == true {
            reason = .abort
        } else if now >= deadline.load(ordering: .relaxed) {
            reason = .deadline
        } else if now &- lastProgress.load(ordering: .relaxed) >= stallLimit {
            reason = .stall
        } else {
            return false
        }
        fired.store(reason.rawValue, ordering: .releasing)
        return true
    }

    /// The watch's clock, in nanoseconds.
    package func now() -> UInt64 { UInt64(max(0, clock.now) * 1e9) }
}

/// FFmpeg's interrupt callback; `opaque` is an unretained `NetworkWatch`, kept alive by the
/// `AVIOStream` whose context calls it (closing calls it too).
package let networkInterrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<NetworkWatch>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
}
