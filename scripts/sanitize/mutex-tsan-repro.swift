// Why scripts/sanitize/tsan.supp exists: ThreadSanitizer does not see Synchronization.Mutex's lock
// (the standard library is not instrumented), so two threads that only ever touch a value inside
// `withLock` are reported as a "Swift access race" and a "data race". Run:
//   swiftc -sanitize=thread -O -o /tmp/repro scripts/sanitize/mutex-tsan-repro.swift && /tmp/repro
// It prints "count 40000" (mutual exclusion held: every increment counted) and TSan's warnings
// (3 access races and 10 data races on 2026-11-26, Swift 6.3.1).
import Foundation
import Synchronization

// Two threads change one struct only inside Mutex.withLock: no race by construction.
final class Box: Sendable {
    struct State { var count = 0; var items: [Int] = [] }
    let state = Mutex(State())
}
let box = Box()
let threads = (0..<2).map { n in
    Thread {
        for i in 0..<20_000 { box.state.withLock { $0.count += 1; $0.items.append(i); if $0.items.count > 64 { $0.items.removeFirst(32) } } }
    }
}
threads.forEach { $0.start() }
while box.state.withLock({ $0.count }) < 40_000 { usleep(1000) }
print("count", box.state.withLock { $0.count })
