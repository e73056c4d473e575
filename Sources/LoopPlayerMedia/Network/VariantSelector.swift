/// Chooses the variant for each next segment: a state machine fed with downloads and the buffer
/// level, returning decisions; the caller fetches.
///
/// ```swift
/// var selector = VariantSelector(variants: master.variants.map(VariantSelector.Candidate.init),
///                                 preference: .automatic, outputSize: HLSResolution(width: 640, height: 360))!
/// var decision = selector.start()                         // no measurement yet: the lowest
/// selector.record(bytes: 400_000, seconds: 0.2)           // each finished download
/// decision = selector.next(bufferSeconds: 6, now: 12.0)   // at each segment boundary
/// if decision.switched { … fetch the next segment from variant decision.variant … }
/// ```
///
/// Rules (`Tuning` holds the numbers):
/// - **Output size**: variants larger than the smallest one that covers the output (width or
///   height at least the output's) are not chosen automatically: never 4K for a 640x360 window
///   when a closer variant exists. Variants without a resolution are never excluded.
/// - **Start**: the highest variant within `startSafety` × the estimate (downloads of at least
///   `ThroughputEstimate.minimumBytes` only; playlist fetches measure latency), else the lowest.
/// - **Down**: when the buffer is below `lowBufferSeconds`, or the estimate is below the current
///   variant's bandwidth: to the highest variant within `downSafety` × estimate, at least one
///   step down, at once.
/// - **Climb** (at the start): the first segment plays at the start variant; from then on, each
///   download that shows a higher variant fits within `upSafety` × estimate moves there at once (no
///   hold, no buffer needed: the start was the safe level), as hls.js and dash.js do. The climb ends
///   (the level has *settled*) when nothing higher fits, or at the first step down.
/// - **Up** (settled): when a higher variant fits within `upSafety` × estimate and the buffer holds
///   at least `upBufferSeconds`, continuously for `upHoldSeconds`, and `minSwitchInterval` has
///   passed since the last switch: to the highest such variant.
/// - **Fixed preferences** (`.maxBitrate`, `.minBitrate`, `.bitrate(n)`) ignore throughput and size.
package struct VariantSelector: Sendable {
    /// What the selector needs to know about a variant.
    package struct Candidate: Sendable, Equatable {
        package var bandwidth: Int
        package var resolution: HLSResolution?

        package init(bandwidth: Int, resolution: HLSResolution? = nil) {
            self.bandwidth = bandwidth
            self.resolution = resolution
        }

        package init(_ variant: HLSVariantStream) {
            self.init(bandwidth: variant.bandwidth, resolution: variant.resolution)
        }
    }

    package struct Tuning: Sendable, Equatable {
        fileprivate var startSafety = 0.7
        fileprivate var upSafety = 0.7
        fileprivate var downSafety = 0.85
        package var lowBufferSeconds = 2.0
        package var upBufferSeconds = 4.0
        package var upHoldSeconds = 4.0
        package var minSwitchInterval = 4.0
        /// Climb at the start (see the rules); false: the settled rules from the first segment.
        package var climbsAtStart = true

        package static let standard = Tuning()
        package init() {}
    }

    package struct Decision: Sendable, Equatable {
        package enum Reason: String, Sendable, Equatable {
            case start, preference, stay, bufferLow, throughputLow, throughputHigh, outputSize
        }

        /// An index into the candidates, as given.
        package var variant: Int
        package var reason: Reason
        /// True when `variant` differs from the one before.
        package var switched: Bool

        package init(variant: Int, reason: Reason, switched: Bool) {
            self.variant = variant
            self.reason = reason
            self.switched = switched
        }
    }

    package let candidates: [Candidate]
    package let preference: VariantPreference
    package let tuning: Tuning
    package private(set) var throughput: ThroughputEstimate
    package private(set) var outputSize: HLSResolution?
    /// The variant in use (an index into `candidates`).
    package private(set) var current: Int
    /// Candidate indices from the lowest bandwidth to the highest.
    private let ranked: [Int]
    private var lastSwitch: Double?
    private var lastUpSwitch: Double?
    private var upSince: Double?
    /// Still climbing from the start variant (see the rules); the fetch-ahead stays short meanwhile.
    package private(set) var isClimbing = true

    /// Nil without candidates (the parser refuses a master playlist without variants).
    package init?(variants candidates: [Candidate], preference: VariantPreference = .automatic,
                 outputSize: HLSResolution? = nil, tuning: Tuning = .standard,
                 throughput: ThroughputEstimate = ThroughputEstimate()) {
        guard !candidates.isEmpty else { return nil }
        self.candidates = candidates
        self.preference = preference
        self.outputSize = outputSize
        self.tuning = tuning
        isClimbing = tuning.climbsAtStart
        self.throughput = throughput
        ranked = candidates.indices.sorted { a, b in
            let x = candidates[a], y = candidates[b]
            if x.bandwidth != y.bandwidth { return x.bandwidth < y.bandwidth }
            return (x.resolution.map { $0.width * $0.height } ?? 0) < (y.resolution.map { $0.width * $0.height } ?? 0)
        }
        current = ranked[0]
    }

    // MARK: Inputs

    /// Records a finished download (a segment, or a playlist: small ones are ignored) that ended
    /// at `now` (monotonic seconds, when known).
    package mutating func record(bytes: Int, seconds: Double, at now: Double? = nil) {
        throughput.add(bytes: bytes, seconds: seconds, at: now)
    }

    /// The output's size in pixels changed (a window resized); applies at the next decision.
    package mutating func setOutputSize(_ size: HLSResolution?) {
        outputSize = size
    }

    // MARK: Decisions

    /// The variant to start with.
    package mutating func start() -> Decision {
        let target: Int
        let reason: Decision.Reason
        if let fixed = fixedChoice {
            (target, reason) = (fixed, .preference)
        } else {
            (target, reason) = (throughput.bitsPerSecond.map { highest(within: $0 * tuning.startSafety) } ?? allowed[0], .start)
        }
        let switched = target != current
        current = target
        return Decision(variant: target, reason: reason, switched: switched)
    }

    /// The variant for the next segment, at time `now` (seconds, any monotonic origin) with
    /// `bufferSeconds` of media buffered ahead of the picture.
    package mutating func next(bufferSeconds: Double, now: Double) -> Decision {
        if let fixed = fixedChoice { return move(to: fixed, reason: .preference, now: now) }
        let allowed = self.allowed
        // A variant above the output-size cap (the window shrank): down at once.
        if !allowed.contains(current), let top = allowed.last {
            return move(to: top, reason: .outputSize, now: now)
        }
        let position = allowed.firstIndex(of: current) ?? 0
        let estimate = throughput.bitsPerSecond
        if position > 0 {
            // While climbing the buffer is short on purpose: only throughput sends it down.
            // Nor right after a step up: the buffer kept short while climbing is still filling.
            let rested = lastUpSwitch.map { now - $0 >= tuning.minSwitchInterval } ?? true
            let lowBuffer = !isClimbing && rested && bufferSeconds < tuning.lowBufferSeconds
            let tooSlow = estimate.map { $0 < Double(candidates[current].bandwidth) } ?? false
            if lowBuffer || tooSlow {
                let oneDown = allowed[position - 1]
                let fitting = estimate.map { highest(within: $0 * tuning.downSafety) } ?? oneDown
                let target = rank(of: fitting) < rank(of: oneDown) ? fitting : oneDown
                upSince = nil
                isClimbing = false
                return move(to: target, reason: lowBuffer ? .bufferLow : .throughputLow, now: now)
            }
        }
        guard let estimate else { return stay() }
        let candidate = highest(within: estimate * tuning.upSafety)
        if isClimbing {
            guard rank(of: candidate) > rank(of: current) else {
                isClimbing = false
                return stay()
            }
            return move(to: candidate, reason: .throughputHigh, now: now)
        }
        guard rank(of: candidate) > rank(of: current), bufferSeconds >= tuning.upBufferSeconds else {
            upSince = nil
            return stay()
        }
        let since = upSince ?? now
        upSince = since
        let held = now - since >= tuning.upHoldSeconds
        let rested = lastSwitch.map { now - $0 >= tuning.minSwitchInterval } ?? true
        guard held && rested else { return stay() }
        upSince = nil
        return move(to: candidate, reason: .throughputHigh, now: now)
    }

    // MARK: Helpers

    private var fixedChoice: Int? {
        switch preference {
        case .automatic: nil
        case .maxBitrate: ranked.last
        case .minBitrate: ranked.first
        case let .bitrate(limit): ranked.last { candidates[$0].bandwidth <= limit } ?? ranked[0]
        }
    }

    /// Candidate indices the automatic choice may use, lowest bandwidth first: all of them except
    /// those with more pixels than the smallest variant covering the output.
    private var allowed: [Int] {
        guard let output = outputSize else { return ranked }
        let covering = candidates.compactMap(\.resolution)
            .filter { $0.width >= output.width || $0.height >= output.height }
            .min { $0.width * $0.height < $1.width * $1.height }
        guard let cap = covering.map({ $0.width * $0.height }) else { return ranked }
        let kept = ranked.filter { index in candidates[index].resolution.map { $0.width * $0.height <= cap } ?? true }
        return kept.isEmpty ? ranked : kept
    }

    /// The highest allowed variant whose bandwidth is at most `bitsPerSecond`, else the lowest.
    private func highest(within bitsPerSecond: Double) -> Int {
        let allowed = self.allowed
        return allowed.last { Double(candidates[$0].bandwidth) <= bitsPerSecond } ?? allowed[0]
    }

    private func rank(of index: Int) -> Int { ranked.firstIndex(of: index) ?? 0 }

    private func stay() -> Decision { Decision(variant: current, reason: .stay, switched: false) }

    private mutating func move(to target: Int, reason: Decision.Reason, now: Double) -> Decision {
        guard target != current else { return Decision(variant: current, reason: reason == .preference ? .preference : .stay, switched: false) }
        if rank(of: target) > rank(of: current) { lastUpSwitch = now }
        current = target
        lastSwitch = now
        return Decision(variant: target, reason: reason, switched: true)
    }
}
