import Foundation

/// A FIFO bounded by item count and by a byte budget, shared by one producer and one consumer thread.
///
/// `push` blocks while the queue is full; `pop` blocks while it is empty; `close()` wakes both and
/// makes every later call return at once (the abort path of ffplay's `PacketQueue`).
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    /// A ring of slots; a popped slot is cleared at once so the queue never keeps an element alive.
    private var items: [(element: Element, bytes: Int)?] = []
    private var head = 0
    private var bytes = 0
    private var closed = false

    let maxCount: Int
    let maxBytes: Int

    init(maxCount: Int, maxBytes: Int = .max) {
        self.maxCount = max(1, maxCount)
        self.maxBytes = maxBytes
    }

    var count: Int { condition.withLock { items.count - head } }
    var isClosed: Bool { condition.withLock { closed } }

    /// Appends `element`, waiting for room. Returns false if the queue was closed. `admitAnyway`,
    /// checked every 10 ms while full, lets the element in over the limit (the audio queue
    /// overflows rather than starve the video queue of a file that stores sound far ahead). The
    /// re-check sleeps on the monotonic clock: condition time-outs use the wall clock, which NTP
    /// may step.
    @discardableResult
    func push(_ element: Element, bytes size: Int = 0, admitAnyway: (() -> Bool)? = nil) -> Bool {
        guard let admitAnyway else { return push(element, bytes: size, force: false, wait: true) ?? false }
        while true {
            if let pushed = push(element, bytes: size, force: false, wait: false) { return pushed }
            if admitAnyway() { return push(element, bytes: size, force: true, wait: false) ?? false }
            usleep(10_000)
        }
    }

    /// Nil when full and not waiting; false when closed.
    private func push(_ element: Element, bytes size: Int, force: Bool, wait: Bool) -> Bool? {
        condition.lock()
        defer { condition.unlock() }
        // An item larger than the whole budget is still admitted when the queue is empty.
        while !closed && !force && (items.count - head >= maxCount || (bytes + size > maxBytes && items.count > head)) {
            guard wait else { return nil }
            condition.wait()
        }
        guard !closed else { return false }
        items.append((element, size))
        bytes += size
        condition.broadcast()
        return true
    }

    /// Removes the oldest element, waiting until one exists. Returns nil once closed.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && head == items.count { condition.wait() }
        guard !closed else { return nil }
        return removeFirstLocked()
    }

    var isFull: Bool { condition.withLock { items.count - head >= maxCount || bytes >= maxBytes } }

    /// Removes the oldest element if there is one, without waiting.
    func tryPop() -> Element? {
        condition.withLock { closed || head == items.count ? nil : removeFirstLocked() }
    }

    /// The oldest element, without removing it.
    func peek() -> Element? { peek(at: 0) }

    /// The element `offset` places after the oldest, without removing anything.
    func peek(at offset: Int) -> Element? {
        condition.withLock { closed || head + offset >= items.count ? nil : items[head + offset]?.element }
    }

    /// Removes every element (used by seeks; stale items are otherwise recognised by generation).
    func removeAll() {
        condition.withLock {
            items.removeAll(keepingCapacity: true)
            head = 0
            bytes = 0
            condition.broadcast()
        }
    }

    /// Wakes every waiter; later pushes fail and pops return nil. Elements are released.
    func close() {
        condition.withLock {
            closed = true
            items.removeAll()
            head = 0
            bytes = 0
            condition.broadcast()
        }
    }

    private func removeFirstLocked() -> Element {
        let item = items[head]!
        items[head] = nil
        head += 1
        bytes -= item.bytes
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item.element
    }
}
