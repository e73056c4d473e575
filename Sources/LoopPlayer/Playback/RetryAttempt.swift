import Foundation

/// What trying a skipped run's first item found.
enum RetryOutcome: Sendable {
    case opens
    case fails(PlayerError)
}

/// One try of a schedule's item that failed, on a thread of its own while another entry plays: the
/// item is opened as the source policy allows it (its container and streams read), and given up
/// after `timeout` seconds of the engine's real clock (a read stuck on a network file system).
final class RetryAttempt {
    static let timeout = 20.0
    let item: String
    /// When it must have answered (the engine's real clock).
    let deadline: Double
    private let probe: BackgroundProbe<RetryOutcome>

    init(_ item: String, ext: String, network: NetworkOptions, now: Double, wake: @escaping @Sendable () -> Void) {
        self.item = item
        deadline = now + Self.timeout
        probe = BackgroundProbe(name: "lp-retry", noThread: .fails(.sourceInaccessible(source: item, reason: "no thread to try it")),
                                wake: wake) { abort in
            Self.tryOpening(item, ext: ext, network: network, abort: abort)
        }
    }

    /// The outcome once there is one, or a failure once the deadline passed (nil: still trying).
    func outcome(now: Double) -> RetryOutcome? {
        if let result = probe.result { return result }
        guard now >= deadline else { return nil }
        probe.cancel()
        return .fails(.sourceInaccessible(source: item, reason: "did not open within \(Int(Self.timeout)) s"))
    }

    func cancel() { probe.cancel() }

    /// An HLS playlist is left to its load, which reads it with its own client.
    private static func tryOpening(_ item: String, ext: String, network: NetworkOptions, abort: AbortFlag) -> RetryOutcome {
        do {
            let location = try SourceResolver.standard().resolve(item, ext: ext)
            let plan = try SourcePlan.admit(location, network: network, controls: NetworkControls()).get()
            if plan.url.pathExtension.lowercased() == "m3u8" { return .opens }
            _ = try MediaInput.open(location, interrupt: InputInterrupt(abort: abort),
                                    access: InputAccess.forSource(plan.kind, options: network))
            return .opens
        } catch let failure as InputFailure {
            return .fails(failure.error)
        } catch let error as PlayerError {
            return .fails(error)
        } catch {
            return .fails(.sourceInaccessible(source: item, reason: "\(error)"))
        }
    }
}
