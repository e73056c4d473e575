/// How a player treats network sources: which sources it may open, how long it keeps trying, how
/// far ahead it fetches and which HLS variant it plays.
///
/// ```swift
/// var configuration = EngineConfiguration(output: .offscreen, looping: true)
/// configuration.network.variant = .bitrate(1_500_000)
/// configuration.network.timeout = 60
/// configuration.network.allowedSources = AllowedSources(schemes: ["https"], hosts: ["*.example.com"])
/// ```
package struct NetworkOptions: Sendable, Equatable {
    /// Which HLS variant plays (`HLSVariant`; loopplay's `--hls-bitrate`).
    package var variant: VariantPreference = .automatic
    /// Seconds a source may keep failing (server gone, stalled, 5xx) before it fails with
    /// `networkError` (`NetworkTimeout`; loopplay's `--network-timeout`). Playback buffers meanwhile.
    package var timeout: Double = NetworkOptions.defaultTimeout
    /// Seconds without a byte before a connection counts as stalled (and is tried again); never
    /// more than `timeout`.
    package var stallTimeout: Double = 10
    /// The sources the player may open, and what they may lead to (`AllowedSources`;
    /// loopplay's `--allowed-hosts`).
    package var allowedSources: AllowedSources = .standard
    /// Seconds of media an HLS source fetches ahead of the picture.
    package var bufferAhead: Double = 30
    /// Bytes of HLS segments kept in memory for VOD loops (0: none): a loop whose segments fit is
    /// read from memory after its first pass, and survives losing the network.
    package var segmentCacheBytes: Int = 64 << 20
    /// The adaptive variant choice's thresholds.
    package var variantTuning: VariantSelector.Tuning = .standard

    /// Options with this variant choice, give-up time and allowed sources; the rest keep their defaults.
    package init(variant: VariantPreference = .automatic, timeout: Double = NetworkOptions.defaultTimeout,
                allowedSources: AllowedSources = .standard) {
        self.variant = variant
        self.timeout = timeout
        self.allowedSources = allowedSources
    }

    /// Seconds a source may keep failing by default, and the range allowed.
    package static let defaultTimeout = 30.0
    package static let timeoutRange = 0.5...86_400.0

    /// The stall limit actually used: never longer than the give-up time.
    package var effectiveStallTimeout: Double { max(0.1, min(stallTimeout, timeout)) }

    package var policy: SourcePolicy { SourcePolicy(allowed: allowedSources) }

    /// How HTTP fetches behave under these options. With a host allow list, redirects are not
    /// followed: FFmpeg follows them before we could judge where they lead.
    package var fetchOptions: HTTPFetchOptions {
        var options = HTTPFetchOptions()
        options.stallTimeout = effectiveStallTimeout
        options.policy = policy
        if allowedSources.hosts != nil { options.maxRedirects = 0 }
        return options
    }
}
