/// Which HLS variant to play (mpv's `--hls-bitrate`): chosen by throughput, or fixed.
public enum VariantPreference: Sendable, Equatable, CustomStringConvertible {
    /// By measured throughput, buffer level and output size; switches while playing.
    case automatic
    /// The highest bandwidth.
    case maxBitrate
    /// The lowest bandwidth.
    case minBitrate
    /// The highest bandwidth not above `n` bits/s (the lowest when none is that low).
    case bitrate(Int)

    /// `automatic`, `max`, `min` or the bits per second, as messages show it and `--hls-bitrate` takes it.
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .maxBitrate: "max"
        case .minBitrate: "min"
        case let .bitrate(n): "\(n)"
        }
    }
}
