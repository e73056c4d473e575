/// A FIFO bounded by item count and by a byte budget, between one producer and one consumer thread.
///
/// `push` blocks while the queue is full, `pop` while it is empty; `close()` wakes both and makes
/// every later call return at once (the abort path of ffplay's `PacketQueue`). Elements may be
/// noncopyable (owned packets move through it); a popped slot is empty at once, so the queue never
/// keeps an element alive. Its state is in a `WaitableState`: the compiler checks every access.
///
/// Queues fed by one producer may share a `MonotonicCondition`: a consumer taking from any of them
/// then wakes a producer blocked on another, and the producer's `giveUp` test (evaluated under the
/// shared lock) can look at the other queues (`count`).
package final class BoundedQueue<Element: ~Copyable & Sendable>: Sendable {
    package let maxCount: Int
    package let maxBytes: Int
    private let guarded: WaitableState<Ring>

    package init(maxCount: Int, maxBytes: Int = .max, condition: MonotonicCondition = MonotonicCondition()) {
        self.maxCount = max(1, maxCount)
        self.maxBytes = maxBytes
        guarded = WaitableState(Ring(capacity: self.maxCount), condition: condition)
    }

    /// The lock shared with the producer's other queues (and held around a `giveUp` test).
    package var condition: MonotonicCondition { guarded.condition }

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
    package func push(_ element: consuming Element, bytes size: Int = 0, giveUp: (() -> Bool)? = nil) -> PushResult {
        var pending = Optional(element)
        let maxBytes = maxBytes
        return guarded.withLock {
            while guarded.read({ !$0.closed && $0.isFull(adding: size, maxBytes: maxBytes) }) {
                if giveUp?() == true { return .gaveUp }
                condition.wait()
            }
            return guarded.changeLocked { ring in
                guard !ring.closed, let element = pending.take() else { return .closed }
                ring.append(element, bytes: size)
                return .queued
            }
        }
    }

    /// Removes the oldest element, waiting until one exists. Nil once closed.
    package func pop() -> Element? {
        guarded.withLock {
            guarded.waitLocked { !$0.closed && $0.count == 0 }
            return guarded.changeLocked { $0.closed ? nil : $0.removeFirst() }
        }
    }

    /// Removes the oldest element if there is one, without waiting.
    package func tryPop() -> Element? {
        guarded.change { $0.closed || $0.count == 0 ? nil : $0.removeFirst() }
    }

    /// How many elements wait (with the shared lock held, a count no taker changes meanwhile).
    package var count: Int { guarded.read { $0.count } }

    /// The bytes the elements take.
    package var bytes: Int { guarded.read { $0.bytes } }

    package var isClosed: Bool { guarded.read { $0.closed } }

    /// Drops every element (a seek: what was read before it is stale).
    package func removeAll() { guarded.change { $0.removeAll() } }

    /// Wakes every waiter; later pushes fail and pops return nil. Elements are released.
    package func close() {
        guarded.change { ring in
            ring.closed = true
            ring.removeAll()
        }
    }

    /// A ring of `capacity` slots, `count` of them initialised from `head` (a ring of noncopyable
    /// elements: arrays cannot hold them). Only ever inside `guarded`.
    fileprivate struct Ring: ~Copyable {
        private let slots: UnsafeMutablePointer<Element>
        private let sizes: UnsafeMutablePointer<Int>
        private let capacity: Int
        private var head = 0
        private(set) var count = 0
        private(set) var bytes = 0
        var closed = false

        init(capacity: Int) {
            self.capacity = capacity
            slots = .allocate(capacity: capacity)
            sizes = .allocate(capacity: capacity)
        }

        deinit {
            for index in 0..<count { (slots + (head + index) % capacity).deinitialize(count: 1) }
            slots.deallocate()
            sizes.deallocate()
        }

        func isFull(adding size: Int, maxBytes: Int) -> Bool {
            count >= capacity || (count > 0 && bytes + size > maxBytes)
        }

        mutating func append(_ element: consuming Element, bytes size: Int) {
            let slot = (head + count) % capacity
            (slots + slot).initialize(to: element)
            sizes[slot] = size
            count += 1
            bytes += size
        }

        mutating func removeFirst() -> Element {
            let element = (slots + head).move()
            bytes -= sizes[head]
            head = (head + 1) % capacity
            count -= 1
            return element
        }

        mutating func removeAll() {
            while count > 0 { _ = removeFirst() }
            head = 0
            bytes = 0
        }

        func element(at offset: Int) -> Element where Element: Copyable { slots[(head + offset) % capacity] }
    }
}

extension BoundedQueue where Element: Copyable & Sendable {
    /// The element `offset` places after the oldest, without removing anything (a look another
    /// thread may take: only for elements that may be shared).
    package func peek(at offset: Int = 0) -> Element? {
        guarded.read { $0.closed || offset >= $0.count ? nil : $0.element(at: offset) }
    }
}
