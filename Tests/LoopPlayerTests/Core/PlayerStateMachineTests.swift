@testable import LoopPlayer
import XCTest

/// Every (state × input) pair of `PlayerStateMachine`, the no-ops included: the state reached, the
/// actions returned and whether a pause is wanted afterwards.
final class PlayerStateMachineTests: XCTestCase {
    typealias Input = PlayerStateMachine.Input
    typealias Action = PlayerStateMachine.Action

    private static let setupError = PlayerError.renderFailed(reason: "setup")
    private static let newError = PlayerError.noVideoStream(source: "next")

    /// Where a row starts, reached by real inputs from a new machine.
    enum From: String, CaseIterable {
        // One per state (loading twice: with and without `NotAutoPlay`).
        case idle, loading, loadingHeld, ready, playing, paused, buffering, ended, failed
        // The same states with a different history.
        case idleAfterUnload, loadingPauseAsked, endedPaused, failedWithoutItem

        static let everyState: [From] = [.idle, .loading, .loadingHeld, .ready, .playing, .paused, .buffering, .ended, .failed]

        var inputs: [Input] {
            switch self {
            case .idle: []
            case .loading: [.load(autoplay: true)]
            case .loadingHeld: [.load(autoplay: false)]
            case .ready: [.load(autoplay: false), .opened, .frameShown]
            case .playing: [.load(autoplay: true), .opened, .frameShown]
            case .paused: From.playing.inputs + [.pause]
            case .buffering: From.playing.inputs + [.starved]
            case .ended: From.playing.inputs + [.reachedEnd]
            case .failed: [.load(autoplay: true), .failed(setupError)]
            case .idleAfterUnload: [.load(autoplay: true), .unload]
            case .loadingPauseAsked: [.load(autoplay: true), .pause]
            case .endedPaused: From.paused.inputs + [.reachedEnd]
            case .failedWithoutItem: [.failed(setupError)]
            }
        }

        var machine: PlayerStateMachine {
            var machine = PlayerStateMachine()
            for input in inputs { _ = machine.handle(input) }
            return machine
        }
    }

    /// Every input, once each (the failure carries a new error).
    static let everyInput: [Input] = [.load(autoplay: true), .load(autoplay: false), .unload, .opened, .failed(newError),
                                      .frameShown, .play, .pause, .starved, .reachedEnd, .resumed, .advanced, .close]

    struct Row {
        var from: From
        var input: Input
        var state: PlayerState
        var actions: [Action]
        /// nil: not asserted here (see the known-bug tests).
        var wantsPause: Bool?
        var line: UInt
    }

    private static func row(_ from: From, _ input: Input, _ state: PlayerState, _ actions: [Action], pause wantsPause: Bool?,
                            line: UInt = #line) -> Row {
        Row(from: from, input: input, state: state, actions: actions, wantsPause: wantsPause, line: line)
    }

    private static let changed = Action.emit(.currentItemChanged)
    private static let removed = Action.emit(.currentItemRemoved)
    private static let readyToPlay = Action.emit(.itemStatusChanged(.readyToPlay))
    private static let failing: [Action] = [.emit(.itemStatusChanged(.failed)), .emit(.error(newError)), .showError(newError)]
    private static let resuming: [Action] = [.setPaused(false), .emit(.playing)]
    private static let pausing: [Action] = [.setPaused(true), .emit(.paused)]
    private static let failedState = PlayerState.failed(setupError)

    // MARK: The table

    static let rows: [Row] = [
        // idle: only load, a failure and a pause request do anything.
        row(.idle, .load(autoplay: true), .loading, [changed], pause: false),
        row(.idle, .load(autoplay: false), .loading, [changed], pause: true),
        row(.idle, .unload, .idle, [], pause: false),
        row(.idle, .opened, .idle, [], pause: false),
        row(.idle, .failed(newError), .failed(newError), failing, pause: false),
        row(.idle, .frameShown, .idle, [], pause: false),
        row(.idle, .play, .idle, [], pause: false),
        row(.idle, .pause, .idle, pausing, pause: true),  // kept for the next source, announced now
        row(.idle, .starved, .idle, [], pause: false),
        row(.idle, .reachedEnd, .idle, [], pause: false),
        row(.idle, .resumed, .idle, [], pause: false),
        row(.idle, .close, .idle, [], pause: false),

        // loading (autoplay)
        row(.loading, .load(autoplay: true), .loading, [removed, changed], pause: false),
        row(.loading, .load(autoplay: false), .loading, [removed, changed], pause: true),
        row(.loading, .unload, .idle, [removed], pause: false),
        row(.loading, .opened, .loading, [readyToPlay], pause: false),
        row(.loading, .failed(newError), .failed(newError), failing, pause: false),
        row(.loading, .frameShown, .playing, [.emit(.playing)], pause: false),
        row(.loading, .play, .loading, [], pause: false),
        row(.loading, .pause, .loading, pausing, pause: true),
        row(.loading, .starved, .loading, [], pause: false),
        row(.loading, .reachedEnd, .loading, [], pause: false),
        row(.loading, .resumed, .loading, [], pause: false),
        row(.loading, .close, .idle, [], pause: false),

        // loading with NotAutoPlay: the first frame makes it ready.
        row(.loadingHeld, .load(autoplay: true), .loading, [removed, changed], pause: nil),  // see testAnAutoplaySource…
        row(.loadingHeld, .load(autoplay: false), .loading, [removed, changed], pause: true),
        row(.loadingHeld, .unload, .idle, [removed], pause: true),
        row(.loadingHeld, .opened, .loading, [readyToPlay], pause: true),
        row(.loadingHeld, .failed(newError), .failed(newError), failing, pause: true),
        row(.loadingHeld, .frameShown, .ready, [], pause: true),
        row(.loadingHeld, .play, .loading, [.setPaused(false)], pause: false),  // the first frame says playing
        row(.loadingHeld, .pause, .loading, [], pause: true),
        row(.loadingHeld, .starved, .loading, [], pause: true),
        row(.loadingHeld, .reachedEnd, .loading, [], pause: true),
        row(.loadingHeld, .resumed, .loading, [], pause: true),
        row(.loadingHeld, .close, .idle, [], pause: true),

        // ready: waiting on the first frame for play.
        row(.ready, .load(autoplay: true), .loading, [removed, changed], pause: nil),  // see testAnAutoplaySource…
        row(.ready, .load(autoplay: false), .loading, [removed, changed], pause: true),
        row(.ready, .unload, .idle, [removed], pause: true),
        row(.ready, .opened, .ready, [], pause: true),
        row(.ready, .failed(newError), .failed(newError), failing, pause: true),
        row(.ready, .frameShown, .ready, [], pause: true),
        row(.ready, .play, .playing, resuming, pause: false),
        row(.ready, .pause, .ready, [], pause: true),  // waiting is already a pause
        row(.ready, .starved, .ready, [], pause: true),
        row(.ready, .reachedEnd, .ready, [], pause: true),
        row(.ready, .resumed, .ready, [], pause: true),
        row(.ready, .close, .idle, [], pause: true),

        // playing
        row(.playing, .load(autoplay: true), .loading, [removed, changed], pause: false),
        row(.playing, .load(autoplay: false), .loading, [removed, changed], pause: true),
        row(.playing, .unload, .idle, [removed], pause: false),
        row(.playing, .opened, .playing, [], pause: false),
        row(.playing, .failed(newError), .failed(newError), failing, pause: false),
        row(.playing, .frameShown, .playing, [], pause: false),  // no `playing` per frame
        row(.playing, .play, .playing, [], pause: false),
        row(.playing, .pause, .paused, pausing, pause: true),
        row(.playing, .starved, .buffering, [.emit(.waitingToPlayAtSpecifiedRate)], pause: false),
        row(.playing, .reachedEnd, .ended, [.emit(.ended)], pause: false),
        row(.playing, .resumed, .playing, [], pause: false),
        row(.playing, .close, .idle, [], pause: false),

        // paused: the pause outlives the source (a new one loads paused).
        row(.paused, .load(autoplay: true), .loading, [removed, changed], pause: true),
        row(.paused, .load(autoplay: false), .loading, [removed, changed], pause: true),
        row(.paused, .unload, .idle, [removed], pause: true),
        row(.paused, .opened, .paused, [], pause: true),
        row(.paused, .failed(newError), .failed(newError), failing, pause: true),
        row(.paused, .frameShown, .paused, [], pause: true),  // a seek's picture while paused
        row(.paused, .play, .playing, resuming, pause: false),
        row(.paused, .pause, .paused, [], pause: true),
        row(.paused, .starved, .paused, [], pause: true),
        row(.paused, .reachedEnd, .ended, [.emit(.ended)], pause: true),
        row(.paused, .resumed, .paused, [], pause: true),
        row(.paused, .close, .idle, [], pause: true),

        // buffering
        row(.buffering, .load(autoplay: true), .loading, [removed, changed], pause: false),
        row(.buffering, .load(autoplay: false), .loading, [removed, changed], pause: true),
        row(.buffering, .unload, .idle, [removed], pause: false),
        row(.buffering, .opened, .buffering, [], pause: false),
        row(.buffering, .failed(newError), .failed(newError), failing, pause: false),
        row(.buffering, .frameShown, .playing, [.emit(.playing)], pause: false),
        row(.buffering, .play, .buffering, [], pause: false),
        row(.buffering, .pause, .paused, pausing, pause: true),
        row(.buffering, .starved, .buffering, [], pause: false),  // announced once
        row(.buffering, .reachedEnd, .ended, [.emit(.ended)], pause: false),
        row(.buffering, .resumed, .buffering, [], pause: false),
        row(.buffering, .close, .idle, [], pause: false),

        // ended: the last frame is held.
        row(.ended, .load(autoplay: true), .loading, [removed, changed], pause: false),
        row(.ended, .load(autoplay: false), .loading, [removed, changed], pause: true),
        row(.ended, .unload, .idle, [removed], pause: false),
        row(.ended, .opened, .ended, [], pause: false),
        row(.ended, .failed(newError), .failed(newError), failing, pause: false),
        row(.ended, .frameShown, .ended, [], pause: false),
        row(.ended, .play, .ended, [], pause: false),
        // DOUBTFUL: `paused` is announced while the state stays `ended` (the pause waits for a seek).
        row(.ended, .pause, .ended, pausing, pause: true),
        row(.ended, .starved, .ended, [], pause: false),
        row(.ended, .reachedEnd, .ended, [], pause: false),
        // `.resumed` from `.ended` is in testResumingAfterTheEndAnnouncesPlaying (it misses `playing`).
        row(.ended, .close, .idle, [], pause: false),

        // failed: the error is shown until a new source or unload clears it.
        row(.failed, .load(autoplay: true), .loading, [removed, .clearError, changed], pause: false),
        row(.failed, .load(autoplay: false), .loading, [removed, .clearError, changed], pause: true),
        row(.failed, .unload, .idle, [removed, .clearError], pause: false),
        row(.failed, .opened, failedState, [], pause: false),
        row(.failed, .failed(newError), .failed(newError), failing, pause: false),
        row(.failed, .frameShown, failedState, [], pause: false),
        row(.failed, .play, failedState, [], pause: false),
        row(.failed, .pause, failedState, pausing, pause: true),
        row(.failed, .starved, failedState, [], pause: false),
        row(.failed, .reachedEnd, failedState, [], pause: false),
        row(.failed, .resumed, failedState, [], pause: false),
        row(.failed, .close, failedState, [], pause: false),  // the run's outcome keeps the failure

        // A playlist's next item took over (already open): the item changes without loading, and
        // the state stays playing or paused; from anywhere else its first frame says what it is.
        row(.idle, .advanced, .loading, [changed, readyToPlay], pause: false),
        row(.loading, .advanced, .loading, [removed, changed, readyToPlay], pause: false),
        row(.loadingHeld, .advanced, .loading, [removed, changed, readyToPlay], pause: false),  // the hold was the first item's
        row(.ready, .advanced, .loading, [removed, changed, readyToPlay], pause: false),
        row(.playing, .advanced, .playing, [removed, changed, readyToPlay], pause: false),
        row(.paused, .advanced, .paused, [removed, changed, readyToPlay], pause: true),
        row(.buffering, .advanced, .loading, [removed, changed, readyToPlay], pause: false),
        row(.ended, .advanced, .loading, [removed, changed, readyToPlay], pause: false),
        row(.failed, .advanced, .loading, [removed, .clearError, changed, readyToPlay], pause: false),

        // The same states with another history.
        row(.idleAfterUnload, .load(autoplay: true), .loading, [changed], pause: false),  // nothing left to remove
        row(.idleAfterUnload, .unload, .idle, [], pause: false),
        row(.loadingPauseAsked, .opened, .loading, [readyToPlay], pause: true),
        row(.loadingPauseAsked, .frameShown, .paused, [], pause: true),  // `paused` was announced with the request
        row(.loadingPauseAsked, .pause, .loading, [], pause: true),
        row(.loadingPauseAsked, .play, .loading, [.setPaused(false)], pause: false),
        row(.endedPaused, .resumed, .paused, [], pause: true),
        row(.endedPaused, .play, .ended, resuming, pause: false),
        row(.endedPaused, .pause, .ended, [], pause: true),
        row(.failedWithoutItem, .load(autoplay: true), .loading, [.clearError, changed], pause: false),
        row(.failedWithoutItem, .unload, .idle, [.clearError], pause: false),
        row(.failedWithoutItem, .close, failedState, [], pause: false),
    ]

    // MARK: Tests

    func testEverySetupReachesItsState() {
        let expected: [From: (PlayerState, Bool)] = [
            .idle: (.idle, false), .loading: (.loading, false), .loadingHeld: (.loading, true), .ready: (.ready, true),
            .playing: (.playing, false), .paused: (.paused, true), .buffering: (.buffering, false), .ended: (.ended, false),
            .failed: (Self.failedState, false), .idleAfterUnload: (.idle, false), .loadingPauseAsked: (.loading, true),
            .endedPaused: (.ended, true), .failedWithoutItem: (Self.failedState, false),
        ]
        XCTAssertEqual(expected.count, From.allCases.count)
        for from in From.allCases {
            let machine = from.machine
            XCTAssertEqual(machine.state, expected[from]?.0, "\(from)")
            XCTAssertEqual(machine.wantsPause, expected[from]?.1, "\(from)")
        }
    }

    func testEveryRow() {
        for row in Self.rows {
            var machine = row.from.machine
            let actions = machine.handle(row.input)
            let label = "\(row.from) + \(row.input)"
            XCTAssertEqual(machine.state, row.state, label, line: row.line)
            XCTAssertEqual(actions, row.actions, label, line: row.line)
            if let wantsPause = row.wantsPause { XCTAssertEqual(machine.wantsPause, wantsPause, label, line: row.line) }
        }
    }

    /// The table leaves no (state × input) pair out; the three pairs it leaves to the known-bug tests
    /// below are named here.
    func testTheTableCoversEveryStateAndInput() {
        let covered = Set(Self.rows.map { "\($0.from) + \(Self.name(of: $0.input))" })
        let inBugTests: Set = ["ended + resumed"]
        for from in From.everyState {
            for input in Self.everyInput {
                let pair = "\(from) + \(Self.name(of: input))"
                XCTAssertTrue(covered.contains(pair) || inBugTests.contains(pair), "no row for \(pair)")
            }
        }
        XCTAssertEqual(Self.rows.count, Set(Self.rows.map { "\($0.from) + \(Self.name(of: $0.input))" }).count, "a pair twice")
    }

    /// A whole life, as the engine drives it, and the events a host sees.
    func testALifeFromLoadToClose() {
        var machine = PlayerStateMachine()
        let script: [(Input, PlayerState, [Action])] = [
            (.load(autoplay: true), .loading, [Self.changed]),
            (.opened, .loading, [Self.readyToPlay]),
            (.frameShown, .playing, [.emit(.playing)]),
            (.frameShown, .playing, []),
            (.starved, .buffering, [.emit(.waitingToPlayAtSpecifiedRate)]),
            (.starved, .buffering, []),
            (.frameShown, .playing, [.emit(.playing)]),
            (.pause, .paused, Self.pausing),
            (.frameShown, .paused, []),
            (.play, .playing, Self.resuming),
            (.reachedEnd, .ended, [.emit(.ended)]),
            (.load(autoplay: true), .loading, [Self.removed, Self.changed]),
            (.failed(Self.newError), .failed(Self.newError), Self.failing),
            (.load(autoplay: true), .loading, [Self.removed, .clearError, Self.changed]),
            (.unload, .idle, [Self.removed]),
            (.close, .idle, []),
        ]
        for (step, (input, state, actions)) in script.enumerated() {
            XCTAssertEqual(machine.handle(input), actions, "step \(step): \(input)")
            XCTAssertEqual(machine.state, state, "step \(step): \(input)")
        }
    }

    /// NotAutoPlay: ready on the first frame, playing on `play`, with one `playing`.
    func testNotAutoPlayWaitsOnTheFirstFrameUntilPlay() {
        var machine = PlayerStateMachine()
        XCTAssertEqual(machine.handle(.load(autoplay: false)), [Self.changed])
        XCTAssertEqual(machine.handle(.opened), [Self.readyToPlay])
        XCTAssertEqual(machine.handle(.frameShown), [])
        XCTAssertEqual(machine.state, .ready)
        XCTAssertEqual(machine.handle(.pause), [])
        XCTAssertEqual(machine.handle(.play), Self.resuming)
        XCTAssertEqual(machine.state, .playing)
        XCTAssertEqual(machine.handle(.frameShown), [])
        XCTAssertEqual(machine.handle(.pause), Self.pausing)
        XCTAssertEqual(machine.state, .paused)
    }

    /// A pause asked for before anything is loaded holds the next source's first frame as `paused`.
    func testAPauseBeforeLoadingHoldsTheNextSource() {
        var machine = PlayerStateMachine()
        XCTAssertEqual(machine.handle(.pause), Self.pausing)
        XCTAssertEqual(machine.handle(.load(autoplay: true)), [Self.changed])
        XCTAssertEqual(machine.handle(.opened), [Self.readyToPlay])
        XCTAssertEqual(machine.handle(.frameShown), [])
        XCTAssertEqual(machine.state, .paused)
        XCTAssertEqual(machine.handle(.play), Self.resuming)
        XCTAssertEqual(machine.state, .playing)
    }

    /// `play` while a NotAutoPlay source loads is announced once, by its first frame.
    func testPlayWhileLoadingAHeldSourceAnnouncesPlayingOnce() {
        var machine = PlayerStateMachine()
        _ = machine.handle(.load(autoplay: false))
        XCTAssertEqual(machine.handle(.play), [.setPaused(false)])
        XCTAssertEqual(machine.handle(.frameShown), [.emit(.playing)])
        XCTAssertEqual(machine.state, .playing)
    }

    // MARK: Fixed bugs (found by these tests)

    /// The NotAutoPlay hold of a source never played does not leak into the next source: an autoplay
    /// `load` after it plays (a user's pause does carry over, as mpv's).
    func testAnAutoplaySourceAfterAHeldOnePlays() {
        for from in [From.loadingHeld, .ready] {
            var machine = from.machine
            XCTAssertEqual(machine.handle(.load(autoplay: true)), [Self.removed, Self.changed], "\(from)")
            XCTAssertFalse(machine.wantsPause, "\(from) → load(autoplay: true) drops the hold")
            _ = machine.handle(.opened)
            XCTAssertEqual(machine.handle(.frameShown), [.emit(.playing)], "\(from)")
            XCTAssertEqual(machine.state, .playing, "\(from)")
        }
    }

    /// Leaving `ended` (a seek, or looping switched on) into `playing` is announced, like every other
    /// way into `playing`.
    func testResumingAfterTheEndAnnouncesPlaying() {
        var machine = From.ended.machine
        let actions = machine.handle(.resumed)
        XCTAssertEqual(machine.state, .playing)
        XCTAssertEqual(actions, [.emit(.playing)], "ended → playing is announced")
        XCTAssertFalse(machine.wantsPause)
    }

    // MARK: Helpers

    private static func name(of input: Input) -> String {
        switch input {
        case let .load(autoplay): "load(autoplay: \(autoplay))"
        case .unload: "unload"
        case .opened: "opened"
        case .failed: "failed"
        case .frameShown: "frameShown"
        case .play: "play"
        case .pause: "pause"
        case .starved: "starved"
        case .reachedEnd: "reachedEnd"
        case .resumed: "resumed"
        case .advanced: "advanced"
        case .close: "close"
        }
    }
}
