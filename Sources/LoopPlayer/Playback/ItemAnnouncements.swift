/// What was said of one source, so that each event says a change once: its loop's length
/// (`duration`), the sound device's underruns (`waitingToPlayAtSpecifiedRate`), the picture's
/// rectangle (`boundsChanged`) and the HLS variant on screen (`variantChanged`). Values in, the
/// event to emit out. Engine thread only.
struct ItemAnnouncements {
    private var duration: Double?
    /// The device counts the underruns of earlier sources too: those are not this one's.
    private var underruns: Int
    private var bounds: Rect?
    private var variant: StreamVariant?

    init(underrunsBefore: Int) { underruns = underrunsBefore }

    /// The loop's length now known: the container's announced one, then a pass's measured one if it differs.
    mutating func duration(_ length: Double?) -> PlayerEvent? {
        guard let length, duration.map({ abs($0 - length) > 1e-6 }) ?? true else { return nil }
        duration = length
        return .duration(length)
    }

    /// The device's underrun count now (it counts across sources: an item that takes over starts from it).
    mutating func underruns(_ count: Int) -> PlayerEvent? {
        guard count > underruns else { return nil }
        underruns = count
        return .waitingToPlayAtSpecifiedRate
    }

    /// An item that takes over from another: the underruns until now were the items' before.
    mutating func takesOver(underruns count: Int) { underruns = count }

    mutating func bounds(_ rect: Rect) -> PlayerEvent? {
        guard rect != bounds else { return nil }
        bounds = rect
        return .boundsChanged(rect)
    }

    /// The frame shown: `variantChanged` when it comes from another HLS variant than the one before.
    mutating func variant(of frame: VideoFrame) -> PlayerEvent? {
        guard let shown = frame.variant, shown != variant else { return nil }
        variant = shown
        let size = PixelSize(width: Int(frame.unfiltered.pointee.width), height: Int(frame.unfiltered.pointee.height))
        return .variantChanged(bandwidth: shown.bandwidth, size: size)
    }
}
