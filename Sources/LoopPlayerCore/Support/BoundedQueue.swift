/// A FIFO bounded by item count and by a byte budget, between one producer and one consumer thread.
///
/// `push` blocks while the queue is full, `pop` while it is empty; `close()` wakes both and makes
/// every later call return at once (the abort path of ffplay's `PacketQueue`). Elements may be
/// noncopyable (owned packets move through it); a popped slot is empty at once, so the queue never
/// keeps an element alive. Elements are *sent* through it (`push` takes a `sending` value, `pop`
/// returns one): the compiler checks that the producer keeps nothing of what it pushed, so
/// elements need not be `Sendable` to cross between the threads.
///
/// Queues fed by one producer may share a `MonotonicCondition`: a consumer taking from any of them
/// then wakes a producer blocked on another, and the producer's `giveUp` test (evaluated under the
/// shared lock) can look at the other queues (`countLocked`).
package final class BoundedQueue<Element: ~Copyable>: @unchecked Sendable {  // all state guarded by `condition`
    package let condition: MonotonicCondition
    package let maxCount: Int
    package let maxBytes: Int
    // Guarded by `condition`: a ring of `maxCount` slots, `count` of them initialised from `head`.
    private let slots: UnsafeMutablePointer<Element>
    private let sizes: UnsafeMutablePointer<Int>
    private var head = 0
    private var storedCount = 0
    private var storedBytes = 0
    private var closed = false

    package init(maxCount: Int, maxBytes: Int = .max, condition: MonotonicCondition = MonotonicCondition()) {
        self.maxCount = max(1, maxCount)
        self.maxBytes = maxBytes
        self.condition = condition
        slots = .allocate(capacity: self.maxCount)
        sizes = .allocate(capacity: self.maxCount)
    }

    deinit {
        removeAllLocked()
        slots.deallocate()
        sizes.deallocate()
    }

    package enum PushResult: Equatable {
        case queued
        /// `giveUp` said so while the queue was full: the element was dropped.
        case gaveUp
        /// The queue is closed: the element was dropped.
        case closed
    }

    /// Appends `element`, waiting for room. `giveUp`, checked under the lock each time the queue is
    /// full and a waiter wakes, drops the element instead of waiting on. An element larger than
    /// the whole byte budget is still admitted when the queue is empty.
    @discardableResult
    package func push(_ element: consuming sending Element, bytes size: Int = 0, giveUp: (() -> Bool)? = nil) -> PushResult {
        condition.lock()
        defer { condition.unlock() }
        while !closed && isFullLocked(adding: size) {
            if giveUp?() == true { return .gaveUp }
            condition.wait()
        }
        guard !closed else { return .closed }
        let slot = (head + storedCount) % maxCount
        (slots + slot).initialize(to: element)
        sizes[slot] = size
        storedCount += 1
        storedBytes += size
        condition.broadcast()
        return .queued
    }

    /// Removes the oldest element, waiting until one exists. Nil once closed.
    package func pop() -> sending Element? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && storedCount == 0 { condition.wait() }
        guard !closed else { return nil }
        // Pushed as `sending`, and never seen by another thread since: the popper's alone.
        nonisolated(unsafe) let element = removeFirstLocked()
        return element
    }

    /// Removes the oldest element if there is one, without waiting.
    package func tryPop() -> sending Element? {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, storedCount > 0 else { return nil }
        nonisolated(unsafe) let element = removeFirstLocked()
        return element
    }

    package var count: Int { condition.withLock { storedCount } }

    /// The count, for a `giveUp` test running under the shared lock.
    package var countLocked: Int { storedCount }

    /// The bytes held, under the shared lock.
    package var bytesLocked: Int { storedBytes }

    package var isClosed: Bool { condition.withLock { closed } }

    /// Drops every element (a seek: what was read before it is stale).
    package func removeAll() {
        condition.withLock {
            removeAllLocked()
            condition.broadcast()
        }
    }

    /// Wakes every waiter; later pushes fail and pops return nil. Elements are released.
    package func close() {
        condition.withLock {
            closed = true
            removeAllLocked()
            condition.broadcast()
        }
    }

    private func isFullLocked(adding size: Int) -> Bool {
        storedCount >= maxCount || (storedCount > 0 && storedBytes + size > maxBytes)
    }

    private func removeFirstLocked() -> Element {
        let element = (slots + head).move()
        storedBytes -= sizes[head]
        head = (head + 1) % maxCount
        storedCount -= 1
        condition.broadcast()
        return element
    }

    private func removeAllLocked() {
        while storedCount > 0 { _ = removeFirstLocked() }
        head = 0
        storedBytes = 0
    }
}

extension BoundedQueue where Element: Copyable & Sendable {
    /// The element `offset` places after the oldest, without removing anything (a look another
    /// thread may take: only for elements that may be shared).
    package func peek(at offset: Int = 0) -> Element? {
        condition.withLock { closed || offset >= storedCount ? nil : slots[(head + offset) % maxCount] }
    }
}
