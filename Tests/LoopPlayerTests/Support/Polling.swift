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
