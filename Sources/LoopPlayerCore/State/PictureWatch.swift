/// Decides when the pictures a screen shows are black or frozen for too long (`DisplayAlert`),
/// from samples of the pictures (`PictureSample`): each picture the engine showed as due, each one
/// the output actually presented, and a check at each pass of the run loop. Pure: it is told the
/// time, returns the alerts that began or ended, and says when it must be asked again.
package struct PictureWatch {
    /// Seconds a condition must last before it is an alert; nil: not watched.
    package struct Thresholds: Sendable, Equatable {
        package var black: Double?
        package var frozen: Double?

        package init(black: Double? = nil, frozen: Double? = nil) {
            self.black = black
            self.frozen = frozen
        }
    }

    /// An alert that began (`active`) or ended.
    package struct Change: Sendable, Equatable {
        package var alert: DisplayAlert
        package var active: Bool

        package init(alert: DisplayAlert, active: Bool) {
            self.alert = alert
            self.active = active
        }
    }

    package var thresholds: Thresholds {
        // A condition not watched was not sampled: it starts afresh when it is watched again.
        didSet {
            if oldValue.black == nil { blackSince = nil }
            if oldValue.frozen == nil { (shown, shownSince, dueDiffered) = (nil, nil, false) }
        }
    }
    /// The alerts holding now.
    package private(set) var active: Set<DisplayAlert> = []
    /// How often each alert began since the start.
    package private(set) var raised: [DisplayAlert: Int] = [:]

    /// The first of the black pictures presented in a row (nil: the last one was not black).
    private var blackSince: Double?
    /// The picture on screen, and since when it is unchanged.
    private var shown: UInt64?
    private var shownSince: Double?
    /// A picture due since then differed from the one on screen (it did not reach the screen).
    private var dueDiffered = false
    /// Since when the pictures should be moving, and since when none are coming (buffering).
    private var movingSince: Double?
    private var starvedSince: Double?

    package init(thresholds: Thresholds = Thresholds()) { self.thresholds = thresholds }

    /// Some alert is on: pictures are worth sampling.
    package var isWatching: Bool { thresholds.black != nil || thresholds.frozen != nil }

    /// The engine showed a new picture as due (before the output presents it); nil: a picture that
    /// cannot be sampled, which says nothing.
    package mutating func due(_ sample: PictureSample?) {
        if let sample, let shown, sample.fingerprint != shown { dueDiffered = true }
    }

    /// The output presented a picture; nil: one that cannot be sampled, which is not known to be
    /// black and counts as a change of picture.
    package mutating func presented(_ sample: PictureSample?, at now: Double) {
        guard let sample else {
            // Something reached the screen: not known to be black, and the screen changed.
            (blackSince, shown, shownSince, dueDiffered) = (nil, nil, now, false)
            return
        }
        blackSince = sample.isBlack ? blackSince ?? now : nil
        if sample.fingerprint != shown {
            (shown, shownSince, dueDiffered) = (sample.fingerprint, now, false)
        }
    }

    /// The alerts that began or ended by `now`. `moving`: pictures should be changing now (playing
    /// or buffering, not paused, speed above 0); `starved`: none are coming (buffering).
    package mutating func check(at now: Double, moving: Bool, starved: Bool) -> [Change] {
        movingSince = moving ? movingSince ?? now : nil
        starvedSince = moving && starved ? starvedSince ?? now : nil
        var changes: [Change] = []
        func set(_ alert: DisplayAlert, _ holds: Bool) {
            guard holds != active.contains(alert) else { return }
            if holds {
                active.insert(alert)
                raised[alert, default: 0] += 1
            } else {
                active.remove(alert)
            }
            changes.append(Change(alert: alert, active: holds))
        }
        set(.black, blackDeadline.map { now >= $0 } ?? false)
        set(.frozen, frozenDeadline.map { now >= $0 } ?? false)
        return changes
    }

    /// When `check` must be called next for an alert to begin on time (nil: none can begin). An
    /// alert holding has none: it ends on a new picture or a change of state, which are checked anyway.
    package var nextDeadline: Double? {
        [active.contains(.black) ? nil : blackDeadline, active.contains(.frozen) ? nil : frozenDeadline]
            .compactMap { $0 }.min()
    }

    private var blackDeadline: Double? {
        guard let after = thresholds.black, let blackSince else { return nil }
        return blackSince + after
    }

    /// Frozen from the later of the picture's last change and the start of moving, when what was
    /// due differed from it or nothing came.
    private var frozenDeadline: Double? {
        guard let after = thresholds.frozen, let movingSince else { return nil }
        let unchangedSince = max(shownSince ?? movingSince, movingSince)
        if dueDiffered { return unchangedSince + after }
        if let starvedSince { return max(unchangedSince, starvedSince) + after }
        return nil
    }
}

/// A few sampled rows of a picture: whether it is (almost) black, and a fingerprint that changes
/// when the picture does.
package struct PictureSample: Sendable, Equatable {
    package var isBlack: Bool
    package var fingerprint: UInt64

    package init(isBlack: Bool, fingerprint: UInt64) {
        self.isBlack = isBlack
        self.fingerprint = fingerprint
    }

    /// Samples whose luma (8 bits, as limited-range video codes it) is above this are not dark.
    package static let darkLuma: UInt8 = 40
    /// A picture is black when no more than this fraction of its samples is not dark (a logo or a
    /// clock in a corner of a black screen leaves it black).
    package static let litFraction = 0.02

    /// The sample of `lumas`, a picture's sampled luma values in order.
    package init(lumas: [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        var lit = 0
        for luma in lumas {
            if luma > Self.darkLuma { lit += 1 }
            hash = (hash ^ UInt64(luma)) &* 0x100_0000_01b3
        }
        self.init(isBlack: Double(lit) <= Double(lumas.count) * Self.litFraction, fingerprint: hash)
    }
}
