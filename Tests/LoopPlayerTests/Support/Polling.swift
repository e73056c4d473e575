import Foundation

/// How often `pollFor` looks again. It is the one poll interval of the tests: every wait for what
/// another thread or process does goes through `pollFor` (or `waitFor`), whose timeout is a failure
/// bound (the test gives up and fails when the event never comes), never a speed bound.
private let pollInterval: useconds_t = 10_000

/// Asks `probe` until it gives a value, every 10 ms, for at most `timeout` seconds; nil if it never
/// did (it is asked once more when the time is up).
func pollFor<Value>(timeout: Double, _ probe: () throws -> Value?) rethrows -> Value? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = try probe() { return value }
        if Date() >= deadline { return nil }
        usleep(pollInterval)
    }
}

/// A condition given to `pollFor` is a value at once, `false` included: it would not wait. (A
/// watcher built so raised its abort at once, and the test it guarded raced the abort.)
@available(*, unavailable, message: "a Bool is a value at once: wait for a condition with waitFor")
func pollFor(timeout: Double, _ probe: () throws -> Bool) rethrows -> Bool? { fatalError() }

/// Waits until `condition` holds, for at most `timeout` seconds: for tests that watch what another
/// thread's player does (a window test's main loop runs elsewhere). False if it never did.
func waitFor(timeout: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    try pollFor(timeout: timeout) { try condition() ? true : nil } ?? false
}

/// Asks `process` to end (SIGTERM), and kills it if it has not within `grace` seconds (a loopplay
/// stuck before its event loop, an openbox before its main loop): never waits forever.
func stop(_ process: Process, grace: Double = 5) {
    guard process.isRunning else { return process.waitUntilExit() }
    process.terminate()
    if !waitFor(timeout: grace, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}

/// The scheduler states (`R` running, `S` asleep, `D` in I/O…) of this process's threads named
/// `name` (`/proc/self/task/*/comm`: the player names its threads, and so does `WorkerThread`).
func threadStates(named name: String) -> [Character] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task -> Character? in
        let folder = "/proc/self/task/\(task)"
        guard let comm = try? String(contentsOfFile: folder + "/comm", encoding: .utf8),
              comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
              let stat = try? String(contentsOfFile: folder + "/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // "tid (comm) S …": the state follows the command's closing parenthesis.
        return stat[stat.index(after: end)...].first { !$0.isWhitespace }
    }
}

/// True if there is a thread named `name` and every one is asleep in the kernel: blocked on a
/// condition (a full queue or ring, an empty pipe), which is what a test that stops or wakes a
/// blocked thread must see first.
func areBlocked(threadsNamed name: String) -> Bool {
    let states = threadStates(named: name)
    return !states.isEmpty && states.allSatisfy { $0 == "S" }
}

/// Waits until `areBlocked(threadsNamed: name)`; false if that never happened within `timeout` seconds.
func waitUntilBlocked(threadsNamed name: String, timeout: Double = 10) -> Bool {
    waitFor(timeout: timeout) { areBlocked(threadsNamed: name) }
}
