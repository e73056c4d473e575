import Foundation
import Synchronization
@testable import LoopPlayer
import XCTest

/// The segment fetcher (FFmpeg's avio http) against the fault server: bodies and ranges, each
/// HTTP error, throughput under a throttle, stalls, truncation, a server killed mid-body,
/// redirects and the source policy, abort, and FFmpeg's own reconnect.
final class HTTPFetcherTests: XCTestCase {
    private var root: URL!
    private var server: FaultServer!
    private let payload = (0..<500_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("dir"), withIntermediateDirectories: true)
        try Data(payload).write(to: root.appendingPathComponent("dir/blob.bin"))
        server = try FaultServer(root: root)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func url(_ path: String) -> URL { URL(string: server.url(path))! }

    private func fetcher(stall: Double = 10, resume: Bool = false, policy: SourcePolicy = SourcePolicy()) -> HTTPFetcher {
        Self.makeFetcher(stall: stall, resume: resume, policy: policy)
    }

    private static func makeFetcher(stall: Double = 10, resume: Bool = false, policy: SourcePolicy = SourcePolicy(),
                                    clock: any PlaybackClock = MonotonicClock()) -> HTTPFetcher {
        var options = HTTPFetchOptions()
        options.stallTimeout = stall
        options.resumeBrokenBodies = resume
        options.policy = policy
        options.clock = clock
        return HTTPFetcher(options: options)
    }

    /// Runs `fetch` on its own thread with a virtual clock standing at 0: once `ready` holds (the
    /// request reached the server, or the body is arriving), the clock moves to `advance` (none: it
    /// stands still). Returns the fetch's error and the clock's time when it ended. FFmpeg's own
    /// backstop (`rw_timeout`, the stall limit plus 1 s of real time) never comes first: the stall
    /// limits here are 300 s.
    private func onVirtualClock(advanceTo advance: Double?, once ready: @escaping @Sendable () -> Bool,
                                _ fetch: @escaping @Sendable (VirtualClock) throws -> Void) -> (error: FetchError?, at: Double) {
        let clock = VirtualClock()
        let outcome = ThreadResult<FetchError?>()
        let thread = WorkerThread(name: "lp-test-fetch") {
            do { try fetch(clock); outcome.set(nil) } catch { outcome.set(error as? FetchError) }
        }
        // Generous: a loaded machine (the full suite beside other work) has taken over 10 s to get
        // a request to the Python server.
        XCTAssertTrue(waitFor(timeout: 120, ready),
                      "the fetch is under way (server running: \(server?.isRunning ?? false), log: \((try? server?.requestLog()) ?? []))")
        if let advance { clock.advance(to: advance) }
        let error = outcome.wait(timeout: 120)
        thread.join()
        return ((error ?? nil), clock.now)
    }

    /// Runs `body`, returning its error and how long it took.
    private func failure(_ body: () throws -> Void) -> (error: FetchError?, seconds: Double) {
        let started = Date()
        do { try body() } catch { return (error as? FetchError, Date().timeIntervalSince(started)) }
        return (nil, Date().timeIntervalSince(started))
    }

    func testWholeBodyAndRanges() throws {
        let whole = try fetcher().fetch(url("/dir/blob.bin"))
        XCTAssertEqual(whole.bytes, payload)
        XCTAssertEqual(whole.transfer.byteCount, payload.count)
        XCTAssertEqual(whole.transfer.finalURL, url("/dir/blob.bin"))
        XCTAssertGreaterThan(whole.transfer.seconds, 0)
        XCTAssertLessThanOrEqual(whole.transfer.secondsToHeaders, whole.transfer.seconds)

        let part = try fetcher().fetch(url("/dir/blob.bin"), range: HLSByteRange(offset: 1000, length: 5000))
        XCTAssertEqual(part.bytes, Array(payload[1000..<6000]))
        let start = try fetcher().fetch(url("/dir/blob.bin"), range: HLSByteRange(offset: 0, length: 10))
        XCTAssertEqual(start.bytes, Array(payload.prefix(10)))
        let ranges = try server.requestLog().map(\.range)
        XCTAssertEqual(ranges.suffix(2), ["bytes=1000-5999", "bytes=0-9"], "exactly the range asked for")

        // Resuming: the rest of the body, or of a range, from a given byte.
        var rest: [UInt8] = []
        _ = try fetcher().fetch(url("/dir/blob.bin"), resumeAt: 123_456) { rest += $0; return true }
        XCTAssertEqual(rest, Array(payload[123_456...]))
        var restOfRange: [UInt8] = []
        _ = try fetcher().fetch(url("/dir/blob.bin"), range: HLSByteRange(offset: 1000, length: 5000), resumeAt: 2000) {
            restOfRange += $0
            return true
        }
        XCTAssertEqual(restOfRange, Array(payload[3000..<6000]))

        // Streaming: the consumer sees every byte in order and can stop early.
        var streamed: [UInt8] = []
        _ = try fetcher().fetch(url("/dir/blob.bin")) { chunk in streamed += chunk; return true }
        XCTAssertEqual(streamed, payload)
        let stopped = failure { _ = try self.fetcher().fetch(self.url("/dir/blob.bin")) { _ in false } }
        XCTAssertEqual(stopped.error, .aborted(url: server.url("/dir/blob.bin")))
    }

    /// What FFmpeg 5.1 reports for each status, as typed errors naming the URL.
    func testHTTPErrorStatuses() throws {
        let cases: [(Int, HTTPErrorStatus, Bool)] = [
            (400, .badRequest, false), (401, .unauthorized, false), (403, .forbidden, false), (404, .notFound, false),
            (410, .otherClientError, false), (429, .otherClientError, false),
            (500, .serverError, true), (503, .serverError, true),
        ]
        for (code, status, transient) in cases {
            try server.setFaults([FaultRule(pattern: "blob", status: code)])
            let target = server.url("/dir/blob.bin")
            let result = failure { _ = try self.fetcher().fetch(self.url("/dir/blob.bin")) }
            XCTAssertEqual(result.error, .httpStatus(url: target, status: status), "\(code)")
            XCTAssertEqual(result.error?.isTransient, transient, "\(code)")
            XCTAssertTrue(result.error?.description.contains(target) ?? false)
        }
        try server.clearFaults()
        XCTAssertEqual(failure { _ = try self.fetcher().fetch(self.url("/missing.ts")) }.error,
                       .httpStatus(url: server.url("/missing.ts"), status: .notFound))
    }

    /// A throttled server: the measured throughput is the limit.
    func testThrottledThroughputIsMeasured() throws {
        let limit = 250_000   // bytes/s
        try server.setFaults([FaultRule(prefix: "/dir/", throttle: limit)])
        let result = try fetcher().fetch(url("/dir/blob.bin"))
        XCTAssertEqual(result.bytes, payload)
        let measured = result.transfer.bitsPerSecond / 8
        print("HTTPFetcherTests: throttled to \(limit) B/s, measured \(Int(measured)) B/s over \(result.transfer.seconds) s")
        // The first 1/20 s of bytes leaves at once, so a 2 s transfer measures up to 2.5 % high.
        XCTAssertEqual(measured, Double(limit), accuracy: Double(limit) * 0.1)
    }

    /// A server that accepts and never answers, or stops mid-body, is stalled exactly when the
    /// stall limit has passed on the fetcher's clock, and not before.
    func testStalledServerEndsAtTheStallLimit() throws {
        let (url, stall) = (self.url("/dir/blob.bin"), 300.0)
        let server: FaultServer = self.server
        try server.setFaults([FaultRule(stall: true)])
        let asked = { @Sendable in (try? server.requestLog().contains { $0.path == "/dir/blob.bin" }) ?? false }
        let silent = onVirtualClock(advanceTo: stall, once: asked) { clock in
            _ = try HTTPFetcherTests.makeFetcher(stall: stall, clock: clock).fetch(url)
        }
        XCTAssertEqual(silent.error, .stalled(url: url.absoluteString, seconds: stall), "accept-and-never-answer")

        try server.setFaults([FaultRule(stallAfter: 100_000)])
        // Moved once every byte before the stall arrived: no later byte can restart the stall clock.
        let received = Mutex(0)
        let midBody = onVirtualClock(advanceTo: stall + 1, once: { received.withLock { $0 } >= 100_000 }) { clock in
            _ = try HTTPFetcherTests.makeFetcher(stall: stall, clock: clock).fetch(url) { bytes in
                received.withLock { $0 += bytes.count }
                return true
            }
        }
        guard case let .stalled(_, seconds)? = midBody.error else { return XCTFail("\(String(describing: midBody.error))") }
        XCTAssertEqual(seconds, stall + 1, "stalled since the last byte, at 0 on the clock")
    }

    /// Time that has not passed on the fetcher's clock ends nothing: a stalled server is waited for
    /// while the clock stands (here until the fetch is aborted).
    func testNothingEndsBeforeItsTimeOnTheClock() throws {
        let url = self.url("/dir/blob.bin")
        let server: FaultServer = self.server
        try server.setFaults([FaultRule(stall: true)])
        let abort = AbortFlag()
        let asked = { @Sendable in (try? server.requestLog().contains { $0.path == "/dir/blob.bin" }) ?? false }
        let outcome = onVirtualClock(advanceTo: 299.9, once: asked) { clock in
            // Aborted from here once the clock has moved: the limit is 300 s.
            let watcher = WorkerThread(name: "lp-test-abort") {
                _ = waitFor(timeout: 150) { clock.now >= 299.9 }
                abort.raise()
            }
            defer { watcher.join() }
            _ = try HTTPFetcherTests.makeFetcher(stall: 300, clock: clock).fetch(url, abort: abort)
        }
        XCTAssertEqual(outcome.error, .aborted(url: url.absoluteString), "299.9 s of a 300 s stall limit")
    }

    /// The deadline bounds the whole fetch even while bytes keep trickling in. (Time spent in the
    /// consumer does not count: a clock moved while it runs moves the deadline too, so the clock
    /// moves on a minute at a time until the fetch ends.)
    func testDeadline() throws {
        let url = self.url("/dir/blob.bin")
        try server.setFaults([FaultRule(prefix: "/dir/", throttle: 50_000)])
        let received = ThreadResult<Bool>()
        let clock = VirtualClock()
        let abort = AbortFlag()  // ends the fetch if the deadline never did: the test then fails, quickly
        let outcome = ThreadResult<FetchError?>()
        let thread = WorkerThread(name: "lp-test-fetch") {
            do {
                _ = try HTTPFetcherTests.makeFetcher(stall: 300, clock: clock).fetch(url, timeout: 60, abort: abort) { _ in
                    received.set(true)
                    return true
                }
                outcome.set(nil)
            } catch { outcome.set(error as? FetchError) }
        }
        XCTAssertNotNil(received.wait(timeout: 60), "bytes are arriving")
        XCTAssertTrue(outcome.wait(timeout: 0) == nil, "nothing ends while the clock stands")
        var minutes = 0
        while outcome.wait(timeout: 0.5) == nil, minutes < 20 {
            minutes += 1
            clock.advance(to: Double(minutes) * 60)
        }
        abort.raise()
        thread.join()
        guard case let .timedOut(failed, seconds)?? = outcome.wait(timeout: 0) else {
            return XCTFail("\(String(describing: outcome.wait(timeout: 0)))")
        }
        XCTAssertEqual(failed, url.absoluteString)
        XCTAssertGreaterThanOrEqual(seconds, 60, "not before the deadline")
    }

    func testTruncatedBody() throws {
        try server.setFaults([FaultRule(truncateAfter: 7000)])
        let result = failure { _ = try self.fetcher().fetch(self.url("/dir/blob.bin")) }
        XCTAssertEqual(result.error, .truncated(url: server.url("/dir/blob.bin"), expected: payload.count, received: 7000))
        XCTAssertEqual(result.error?.isTransient, true)
    }

    /// The connection reset mid-body.
    func testDroppedConnection() throws {
        try server.setFaults([FaultRule(dropAfter: 50_000)])
        let result = failure { _ = try self.fetcher().fetch(self.url("/dir/blob.bin")) }
        switch result.error {
        case let .connectionLost(_, received, _)?: XCTAssertLessThanOrEqual(received, 50_000)
        case let .truncated(_, expected, received)?: XCTAssertEqual(expected, payload.count); XCTAssertLessThanOrEqual(received, 50_000)
        default: XCTFail("\(String(describing: result.error))")
        }
        print("HTTPFetcherTests: reset after 50 000 bytes → \(String(describing: result.error)) after \(result.seconds) s")
    }

    /// FFmpeg's reconnect resumes a broken body with a Range request when asked to.
    func testResumeBrokenBodies() throws {
        try server.setFaults([FaultRule(pattern: "blob", dropAfter: 50_000, times: 1)])
        let result = try fetcher(resume: true).fetch(url("/dir/blob.bin"))
        XCTAssertEqual(result.bytes, payload, "resumed where it broke")
        let log = try server.requestLog()
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log[0].outcome, "dropped")
        let resumedAt = Int(log[1].range?.dropFirst("bytes=".count).prefix { $0.isNumber } ?? "") ?? 0
        XCTAssertGreaterThan(resumedAt, 0, "the second request asks for the rest: \(log[1].range ?? "-")")
        XCTAssertLessThanOrEqual(resumedAt, 50_000)
        // Without it, the same fault is an error.
        try server.setFaults([FaultRule(pattern: "blob", dropAfter: 50_000, times: 1)])
        XCTAssertNotNil(failure { _ = try self.fetcher().fetch(self.url("/dir/blob.bin")) }.error)
        print("HTTPFetcherTests: resumed after a reset with \(log[1].range ?? "-") in \(result.transfer.seconds) s")
    }

    /// The server killed mid-transfer: a typed error at once; after a restart on the same port the
    /// same fetch works.
    func testServerKilledMidTransfer() throws {
        try server.setFaults([FaultRule(prefix: "/dir/", throttle: 100_000)])
        // On a clock that stands still no limit can end the fetch: only the lost connection does.
        let fetcher = Self.makeFetcher(stall: 5, clock: VirtualClock())
        let target = url("/dir/blob.bin")
        let outcome = ThreadResult<(FetchError?, Date)>()
        let bodyArriving = ThreadResult<Bool>()
        let thread = Thread {
            do {
                // The collected fetch (`fetch(_:)`) is this one, keeping the bytes.
                _ = try fetcher.fetch(target) { _ in
                    bodyArriving.set(true)
                    return true
                }
                outcome.set((nil, Date()))
            } catch {
                outcome.set((error as? FetchError, Date()))
            }
        }
        thread.start()
        try server.waitForRequest(timeout: 60) { $0.path == "/dir/blob.bin" }
        XCTAssertNotNil(bodyArriving.wait(timeout: 60), "the body is arriving")  // mid-body from here
        let killed = Date()
        server.stop()
        let (error, ended) = try XCTUnwrap(outcome.wait(timeout: 60), "the fetch returned")
        let delay = ended.timeIntervalSince(killed)
        print("HTTPFetcherTests: server killed mid-body, error \(String(describing: error)) after \(delay) s")
        switch error {
        case let .connectionLost(_, received, _)?: XCTAssertLessThan(received, payload.count)
        case let .truncated(_, expected, received)?: XCTAssertEqual(expected, payload.count); XCTAssertLessThan(received, expected)
        default: XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(failure { _ = try fetcher.fetch(target) }.error?.kind, "connectionFailed", "nobody listening")
        try server.restart()
        try server.clearFaults()
        XCTAssertEqual(try fetcher.fetch(target).bytes, payload)
    }

    func testRangeRefusedByServer() throws {
        try server.setFaults([], acceptRanges: false)
        let result = failure { _ = try self.fetcher().fetch(self.url("/dir/blob.bin"), range: HLSByteRange(offset: 1000, length: 10)) }
        XCTAssertEqual(result.error, .rangeNotSupported(url: server.url("/dir/blob.bin")))
    }

    func testTooLarge() {
        let result = failure { _ = try self.fetcher().fetch(self.url("/dir/blob.bin"), maxBytes: 100_000) }
        XCTAssertEqual(result.error, .tooLarge(url: server.url("/dir/blob.bin"), limit: 100_000))
    }

    func testAbortFromAnotherThread() throws {
        try server.setFaults([FaultRule(stall: true)])
        let abort = AbortFlag()
        // Raised from another thread once the request is held by the stalled server.
        let stalled: FaultServer = server
        Thread {
            _ = try? stalled.waitForRequest(timeout: 60) { $0.path == "/dir/blob.bin" }
            abort.raise()
        }.start()
        // On a clock that stands still no limit can end the fetch: only the abort does.
        let fetcher = Self.makeFetcher(clock: VirtualClock())
        let result = failure { _ = try fetcher.fetch(self.url("/dir/blob.bin"), abort: abort) }
        XCTAssertEqual(result.error, .aborted(url: server.url("/dir/blob.bin")))
        print("HTTPFetcherTests: abort raised once the request was held, fetch ended after \(result.seconds) s")
    }

    /// Non-http URLs and redirects to them are refused; the local file is never opened.
    func testRedirectsAndPolicy() throws {
        let secret = root.appendingPathComponent("secret.txt")
        try Data("secret".utf8).write(to: secret)
        let watch = try XCTUnwrap(FileAccessWatch(path: secret.path))

        let direct = failure { _ = try self.fetcher().fetch(secret) }
        XCTAssertEqual(direct.error?.kind, "refused")
        XCTAssertEqual(try server.requestLog().count, 0, "refused before any request")

        try server.setFaults([FaultRule(pattern: "^/to-file$", redirect: secret.absoluteString)])
        let redirected = failure { _ = try self.fetcher().fetch(self.url("/to-file")) }
        print("HTTPFetcherTests: redirect to file:// → \(String(describing: redirected.error))")
        XCTAssertNotNil(redirected.error)
        XCTAssertEqual(watch.accesses(), 0, "the local file was never opened")

        // With redirects off, the target is never requested.
        try server.setFaults([FaultRule(pattern: "^/hop$", redirect: server.url("/dir/blob.bin"))])
        var noRedirects = HTTPFetchOptions()
        noRedirects.maxRedirects = 0
        let hop = failure { _ = try HTTPFetcher(options: noRedirects).fetch(self.url("/hop")) }
        XCTAssertEqual(hop.error?.kind, "connectionFailed", "\(String(describing: hop.error))")
        XCTAssertEqual(try server.requestLog().map(\.path).last, "/hop")

        // A redirect within http(s) is followed, and the final URL reported.
        try server.setFaults([FaultRule(pattern: "^/moved$", redirect: server.url("/dir/blob.bin"))])
        let moved = try fetcher().fetch(url("/moved"))
        XCTAssertEqual(moved.bytes, payload)
        XCTAssertEqual(moved.transfer.finalURL, url("/dir/blob.bin"))

        // …unless the app's allow list refuses where it lands.
        let localOnly = SourcePolicy(allowed: AllowedSources(schemes: ["http"], hosts: ["127.0.0.1"]))
        try server.setFaults([FaultRule(pattern: "^/elsewhere$", redirect: "http://localhost:\(server.port)/dir/blob.bin")])
        let elsewhere = failure { _ = try self.fetcher(policy: localOnly).fetch(self.url("/elsewhere")) }
        XCTAssertEqual(elsewhere.error, .refused(SourceRefusal(target: "http://localhost:\(server.port)/dir/blob.bin",
                                                               reason: "the host localhost is not in the allowed hosts")))
    }

    func testNobodyListening() throws {
        let port = server.port
        server.stop()
        let result = failure { _ = try self.fetcher().fetch(URL(string: "http://127.0.0.1:\(port)/dir/blob.bin")!) }
        guard case let .connectionFailed(_, cause)? = result.error else { return XCTFail("\(String(describing: result.error))") }
        XCTAssertEqual(cause.code, -ECONNREFUSED)

        print("HTTPFetcherTests: nobody listening, failed after \(result.seconds) s")
    }
}

/// A value handed from a thread to the test, waited for with a bound.
final class ThreadResult<Value>: @unchecked Sendable {
    // Guarded by `condition`.
    private var value: Value?
    private let condition = NSCondition()

    func set(_ value: Value) {
        condition.withLock {
            self.value = value
            condition.broadcast()
        }
    }

    func wait(timeout: Double) -> Value? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while value == nil && condition.wait(until: deadline) {}
            return value
        }
    }
}
