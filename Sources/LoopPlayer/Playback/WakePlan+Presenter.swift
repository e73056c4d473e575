/// The presenter's step as the wake plan weighs it.
extension WakePlan.Step {
    init(_ step: Presenter.Step?) {
        switch step {
        case .show?: self = .shown
        case let .waitUntil(time)?: self = .waitUntil(time)
        case .waitForFrames?: self = .waitForFrames
        case .idle?: self = .idle
        case .ended?: self = .ended
        case .finished?: self = .finished
        case nil: self = .nothing
        }
    }
}
