import CFFmpeg
import FFmpegSupport
import Filters
import Synchronization

/// The filter stack the engine wants, and how many times it was set (a stack set again is tried
/// again even if it failed before). The engine writes it; the picture stage reads it per frame.
final class FilterMailbox: Sendable {
    private let state = Mutex<(stack: FilterStack, epoch: Int)>((FilterStack(), 0))

    func set(_ stack: FilterStack) { state.withLock { $0 = (stack, $0.epoch + 1) } }
    var current: (stack: FilterStack, epoch: Int) { state.withLock { $0 } }
}

/// Runs the wanted filter stack on the picture stage's frames. Graphs are built when the stack
/// changes (never at a wrap: temporal filters keep their state across loops); a brightness or
/// contrast change is a command to the running graph. A stack that fails at run time is reported
/// once, with the last working stack, which takes over again. One thread.
struct VideoFilterRunner {
    private let timeBase: AVRational
    private var chain: FilterChain?
    /// The stack `chain` runs, and the stamp its pictures carry.
    private var running = FilterStack()
    private(set) var stamp = FilterStamp()
    /// The last chain that worked and its stack, to fall back to when a new one fails.
    private var fallback: (chain: FilterChain?, stack: FilterStack)?
    private var failedRevision: Int?
    private var epoch = 0

    init(timeBase: AVRational) { self.timeBase = timeBase }

    /// Filters `picture` with the mailbox's stack. `emit` gets each output with a reference to the
    /// unfiltered picture (nil when no filter ran: the output is the picture itself).
    mutating func run(_ picture: consuming OwnedFrame, time: Double, mailbox: FilterMailbox, status: PipelineStatus,
                      emit: (consuming OwnedFrame, consuming OwnedFrame?, FilterStamp) -> Void) {
        adopt(mailbox.current)
        guard let chain else { return emit(picture, nil, stamp) }
        do {
            let stamp = self.stamp
            try chain.process(picture, time: time) { output throws(FilterError) in
                emit(output, picture.reference(), stamp)
            }
        } catch {
            failedRevision = running.revision
            // The fallback is used once: if it fails too, pictures go unfiltered.
            (self.chain, running) = fallback ?? (nil, FilterStack())
            fallback = nil
            stamp = FilterStamp(running)
            status.post(.filterFailed(error, runningInstead: running))
            run(picture, time: time, mailbox: mailbox, status: status, emit: emit)
        }
    }

    /// Takes a new stack, or a new brightness/contrast for the running one.
    private mutating func adopt(_ wanted: (stack: FilterStack, epoch: Int)) {
        let stack = wanted.stack
        if wanted.epoch != epoch {
            epoch = wanted.epoch
            failedRevision = nil
        }
        if stack.revision != stamp.revision && stack.revision != failedRevision {
            fallback = (chain, running)
            chain = stack.isIdentity ? nil : FilterChain(stack: stack, timeBase: timeBase)
            running = stack
            stamp = FilterStamp(stack)
        } else if stack.revision == stamp.revision, stack.adjustment != stamp.adjustment {
            if let chain {
                chain.setAdjustment(stack.adjustment)
            } else if !stack.isIdentity {
                chain = FilterChain(stack: stack, timeBase: timeBase)
            }
            running = stack
            stamp = FilterStamp(stack)
        }
    }
}
