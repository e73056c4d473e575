import CFFmpeg
import FFmpegSupport

/// The decoded pictures of one whole pass of a short loop, kept so that later passes replay them
/// instead of decoding the same packets again: a loop that fits the budget costs its decoding once,
/// however long it runs. It holds references (no copies of its own) to the pictures the stage
/// delivers: the decoder's buffers, or the 4:2:0 pictures the stage converted (10-bit, 4:4:4, RGB),
/// up to a byte budget; a loop that does not fit is refused for good and decodes as before. One
/// thread (the picture stage's).
///
/// A pass is collected only from its first picture: the one after opening, or the first of a pass
/// that began while nothing was being collected (the last pictures of the pass before, which the
/// decoder gives late, are not part of it). A seek, or playing on without a loop, abandons a
/// collection in progress (the pass is no longer whole, or will not come again); a complete one
/// stays.
final class LoopFrameCache {  // used by one thread
    /// One kept picture (a class: an array cannot hold the noncopyable owner itself).
    final class Entry {
        /// A reference of its own to the picture (its pts on the collected pass's timeline).
        let picture: OwnedFrame
        let timestamp: Int64
        let duration: Int64

        init(picture: consuming OwnedFrame, timestamp: Int64, duration: Int64) {
            self.picture = picture
            self.timestamp = timestamp
            self.duration = duration
        }
    }

    enum State: Equatable {
        /// Until a pass begins: a collection starts with a pass's first picture.
        case waiting
        /// Pictures of this pass go in.
        case collecting(pass: Int)
        /// Every picture of this pass is held.
        case complete(pass: Int)
        /// The loop does not fit the budget, or the source cannot be replayed.
        case refused
    }

    let budget: Int
    private(set) var state: State
    private var entries: [Entry] = []
    private(set) var bytes = 0
    /// How late after its start the last pass seen began (its first picture), if it was late.
    private var lastLateness: Int64?

    /// `budget` in bytes; the first pass is collected from the first picture on.
    init(budget: Int) {
        self.budget = budget
        state = budget > 0 ? .collecting(pass: 0) : .refused
    }

    var count: Int { entries.count }
    var isComplete: Bool { if case .complete = state { true } else { false } }
    var isCollecting: Bool { if case .collecting = state { true } else { false } }

    /// A picture the decoder made, at `timestamp` in `pass`: kept while collecting that pass.
    /// `passStart` is where the pass begins on the timeline. A pass whose first picture comes more
    /// than `tolerance` after it, and later than the pass before did, lost leading pictures (those
    /// that reference the pass before, which a decoder drops after opening): it is not replayed, the
    /// next pass is collected instead. A file whose every pass starts equally late (an AVI whose
    /// first timestamp is a frame in) is collected from its second pass.
    func offer(_ picture: borrowing OwnedFrame, timestamp: Int64, duration: Int64, pass: Int,
               passStart: Int64, tolerance: Int64) {
        guard case let .collecting(collected) = state, pass >= collected else { return }
        if pass == collected, entries.isEmpty {
            let lateness = timestamp - passStart
            defer { lastLateness = lateness > tolerance ? lateness : nil }
            if lateness > tolerance, lateness > (lastLateness ?? .min) + tolerance {
                state = .waiting
                return
            }
        }
        guard pass == collected else {
            // A picture of a later pass before this one ended: this one is not whole. Start again
            // with the next pass.
            dropAll()
            state = .waiting
            return
        }
        let size = Self.byteCount(picture.pointer)
        guard bytes + size <= budget, let reference = picture.reference() else { return refuse() }
        entries.append(Entry(picture: reference, timestamp: timestamp, duration: duration))
        bytes += size
    }

    /// The demuxer finished reading `pass` (the decoder was drained when `wantsDrain` said so).
    /// Returns whether the cache now holds a whole pass to replay; otherwise the next pass is
    /// collected.
    func passEnded(_ pass: Int) -> Bool {
        switch state {
        case let .collecting(collected) where collected == pass:
            guard !entries.isEmpty else {
                state = .collecting(pass: pass + 1)
                return false
            }
            state = .complete(pass: pass)
            return true
        case .waiting, .collecting:
            dropAll()
            state = .collecting(pass: pass + 1)
            return false
        case .complete:
            return true
        case .refused:
            return false
        }
    }

    /// Whether the end of `pass` should drain the decoder: it completes this collection, or
    /// replay starts again after a seek.
    func wantsDrain(atEndOf pass: Int) -> Bool {
        switch state {
        case let .collecting(collected): collected == pass
        case .complete: true
        case .waiting, .refused: false
        }
    }

    /// A seek, or playback without a loop: a collection in progress is no longer a whole pass.
    func interrupt() {
        guard case .collecting = state else { return }
        dropAll()
        state = .waiting
    }

    /// Never collect again (the source cannot be replayed, or the budget is exceeded).
    func refuse() {
        dropAll()
        state = .refused
    }

    /// The `index`th picture of the whole pass, as a new reference stamped for `pass`: its
    /// timestamp moves by whole loop lengths (`offset(pass)` − `offset(collected)`).
    func picture(at index: Int, forPass pass: Int, offset: (Int) -> Int64) -> Replayed? {
        guard case let .complete(collected) = state, entries.indices.contains(index) else { return nil }
        let entry = entries[index]
        guard let reference = entry.picture.reference() else { return nil }
        let timestamp = entry.timestamp + offset(pass) - offset(collected)
        reference.pointer.pointee.pts = timestamp
        return Replayed(picture: reference, timestamp: timestamp, duration: entry.duration)
    }

    struct Replayed: ~Copyable {
        var picture: OwnedFrame
        let timestamp: Int64
        let duration: Int64
    }

    private func dropAll() {
        entries.removeAll()
        bytes = 0
    }

    /// Whether a pass of `duration` seconds at one picture per `frameInterval` may fit `budget`
    /// bytes, at 4:2:0's 1.5 bytes a pixel (the running count decides; this only keeps a clip that
    /// cannot fit from filling memory up to the budget first). An unknown length may fit.
    static func mayFit(budget: Int, width: Int, height: Int, duration: Double?, frameInterval: Double) -> Bool {
        guard budget > 0 else { return false }
        guard let duration, duration.isFinite, duration > 0, frameInterval > 0 else { return true }
        let pictures = (duration / frameInterval).rounded(.up)
        let picture = width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)  // yuv420p, odd sizes round up
        return pictures * Double(picture) <= Double(budget)
    }

    /// The memory a picture holds: its data buffers.
    static func byteCount(_ frame: UnsafeMutablePointer<AVFrame>) -> Int {
        withUnsafeBytes(of: frame.pointee.buf) { raw in
            raw.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self).reduce(0) { $0 + ($1.map { Int($0.pointee.size) } ?? 0) }
        }
    }
}
