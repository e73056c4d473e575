import Synchronization

/// Set once to stop a pipeline; FFmpeg's interrupt callback polls it so blocking reads return.
final class AbortFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    var isRaised: Bool { raised.load(ordering: .acquiring) }
    func raise() { raised.store(true, ordering: .releasing) }
}
