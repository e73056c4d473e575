/// What the engine does when the current item's frames have ended: values in (is an item queued,
/// does a replaced file's new content keep the last frame, is the last switch still settling),
/// the engine's action out. The engine performs it (`presentDueFrame`). Engine thread only.
enum ItemEnd: Equatable {
    /// A replaced file's new content is awaited: the last frame holds meanwhile.
    case holdLastFrame
    /// The queued item takes over as soon as its first frame is decoded (its decoder wakes the loop)
    /// or it fails.
    case advance
    /// An item shorter than the settling time ended: the switch settles now, so that the controller
    /// (a playlist) queues the item after it, which then takes over.
    case settleThenAdvance
    /// Nothing follows: playback has reached its end.
    case end

    /// `settling` counts only where a frame step reached the end (a presenter that had ended
    /// before waits for nothing to settle).
    init(queued: Bool, holdsLastFrame: Bool, settling: Bool) {
        if queued {
            self = .advance
        } else if holdsLastFrame {
            self = .holdLastFrame
        } else if settling {
            self = .settleThenAdvance
        } else {
            self = .end
        }
    }
}
