import Synchronization

/// State that threads change and wait on. A `Mutex` holds it, so the compiler checks that nothing
/// reaches it unlocked and nothing non-`Sendable` goes in or out (its owner is checked `Sendable`,
/// not asserted); a `MonotonicCondition` beside it lets a thread sleep until it changes.
///
/// The rule that keeps wakeups from being lost: a wait (`waitLocked`) and every change a waiter may
/// wait for (`change`, `changeLocked`) happen with `condition`'s lock held; a change wakes every
/// waiter. Owners fed by one producer may share a condition (`init(_:condition:)`), so a wait can
/// look at all of their states at once.
package final class WaitableState<State: ~Copyable>: Sendable {
    package let condition: MonotonicCondition
    private let state: Mutex<State>

    package init(_ initial: consuming sending State, condition: MonotonicCondition = MonotonicCondition()) {
        self.condition = condition
        state = Mutex(initial)
    }

    /// Runs `body` with `condition`'s lock held: waits and changes inside it are one step.
    package func withLock<R: ~Copyable, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try condition.withLock(body)
    }

    /// A look at the state, from any thread, with or without `condition`'s lock. (The body gets the
    /// state `inout sending`, as `Mutex` gives it: the compiler refuses a body that lets a part of
    /// it out or puts a non-`Sendable` value in. Nothing a waiter waits for may change here.)
    package func read<R: ~Copyable & Sendable, E: Error>(_ body: (inout sending State) throws(E) -> R) throws(E) -> R {
        try state.withLock { (state: inout sending State) throws(E) -> R in try body(&state) }
    }

    /// Changes what no waiter waits for (a volume, a counter): no lock but the state's, no wakeup.
    @discardableResult
    package func update<R: ~Copyable & Sendable, E: Error>(_ body: (inout sending State) throws(E) -> R) throws(E) -> R {
        try state.withLock { (state: inout sending State) throws(E) -> R in try body(&state) }
    }

    /// Changes the state and wakes every waiter.
    @discardableResult
    package func change<R: ~Copyable & Sendable, E: Error>(_ body: (inout sending State) throws(E) -> R) throws(E) -> R {
        try condition.withLock { () throws(E) -> R in try changeLocked(body) }
    }

    /// `change` for a caller holding `condition`'s lock.
    @discardableResult
    package func changeLocked<R: ~Copyable & Sendable, E: Error>(_ body: (inout sending State) throws(E) -> R) throws(E) -> R {
        assert(condition.isHeldByCurrentThread, "changeLocked without the condition's lock: a waiter could miss the change")
        defer { condition.broadcast() }
        return try state.withLock { (state: inout sending State) throws(E) -> R in try body(&state) }
    }

    /// With `condition`'s lock held: sleeps while `blocked` says so, until `deadline` (monotonic
    /// seconds). False if the time ran out first.
    @discardableResult
    package func waitLocked(until deadline: Double = .infinity, while blocked: (inout sending State) -> Bool) -> Bool {
        assert(condition.isHeldByCurrentThread, "waitLocked without the condition's lock")
        while read(blocked) {
            if !condition.wait(until: deadline), MonotonicCondition.now >= deadline { return false }
        }
        return true
    }
}
