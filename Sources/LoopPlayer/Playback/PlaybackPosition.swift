/// Where the picture is in the loop, from the presenter and the pass's measured length: the pass
/// and the position in it, the time of the picture on screen, and where a seek goes. Values in.
struct PlaybackPosition {
    let presenter: Presenter?
    /// One pass's length once the first pass was read (nil before).
    let measuredLength: Double?

    /// The pass the picture is in and its position in it. At the instant of a wrap the next pass has
    /// begun even if its first frame is not shown yet.
    var spot: (pass: Int, position: Double)? {
        guard let presenter, let current = presenter.current else { return nil }
        let position = presenter.positionInPass
        if let length = measuredLength, length > 0, position >= length - 1e-9 {
            return (current.pass + 1, max(0, position - length))
        }
        return (current.pass, position)
    }

    /// The time in the pass of the picture on screen: it moves once a frame, where the position runs
    /// on between frames.
    var shown: Double {
        guard let current = presenter?.current, let spot else { return 0 }
        return spot.pass > current.pass ? spot.position : current.positionInPass
    }

    /// A seek is under way: its first picture is not on screen yet (a seek past the last picture ends).
    var isSeeking: Bool {
        guard let presenter else { return false }
        return !presenter.showsCurrentGeneration && !presenter.ended
    }

    /// Where a seek to `position` goes: negative to the start, past the end (`duration`) to the last
    /// frame; nil when it cannot (not a number, or "the end" of media whose length is not known yet).
    static func seekTarget(_ position: Double, duration: Double?, lastFrame: Double) -> Double? {
        guard !position.isNaN else { return nil }
        var target = max(0, position)
        if let duration { target = min(target, max(0, duration - lastFrame)) }
        return target.isFinite ? target : nil
    }
}
