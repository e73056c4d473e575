import Foundation

/// Waits until `condition` holds, looking every 20 ms, for at most `timeout` seconds: for tests that
/// watch what another thread's player does (a window test's main loop runs elsewhere).
func waitFor(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// Asks `process` to end (SIGTERM), and kills it if it has not within `grace` seconds (a loopplay
/// stuck before its event loop, an openbox before its main loop): never waits forever.
func stop(_ process: Process, grace: Double = 5) {
    guard process.isRunning else { return process.waitUntilExit() }
    process.terminate()
    if !waitFor(timeout: grace, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}
