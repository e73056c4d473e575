/// A playlist on a shared timeline: its items one after the other, the whole list again and again
/// from the epoch, so item *i* of cycle *k* starts at `epoch + k × cycle + offset(i)` on every
/// screen (a wall playing A, B, C in step). The lengths are the items' own, read from each file
/// before playing, so every player computes the same schedule. Pure.
package struct TimelineSchedule: Sendable, Equatable {
    /// Each item's length in seconds (finite, positive).
    package let lengths: [Double]
    /// The whole list's length.
    package let cycle: Double
    private let offsets: [Double]

    /// Nil without items, or with a length that is not finite and positive.
    package init?(lengths: [Double]) {
        guard !lengths.isEmpty, lengths.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        self.lengths = lengths
        var offsets: [Double] = []
        var sum = 0.0
        for length in lengths {
            offsets.append(sum)
            sum += length
        }
        self.offsets = offsets
        cycle = sum
    }

    /// Where item `index` starts in each cycle.
    package func offset(of index: Int) -> Double { offsets[index] }

    /// The item the timeline is in at system time `time`, the cycle and the position in the item.
    /// Before the epoch: the start of the first item.
    package func place(at time: Double, epoch: Double) -> (cycle: Int, item: Int, position: Double) {
        let elapsed = max(0, time - epoch)
        guard elapsed.isFinite else { return (0, 0, 0) }
        let cycles = (elapsed / cycle).rounded(.down)
        let inCycle = elapsed - cycles * cycle
        // The last item whose offset is not past the place (offsets are sorted).
        var item = 0
        while item + 1 < offsets.count && offsets[item + 1] <= inCycle { item += 1 }
        return (Int(min(cycles, Double(Int.max / 2))), item, max(0, inCycle - offsets[item]))
    }

    /// When (system time) item `index` starts in cycle `cycle`.
    package func start(of index: Int, inCycle cycle: Int, epoch: Double) -> Double {
        epoch + Double(cycle) * self.cycle + offsets[index]
    }

    /// The start of item `index` nearest to system time `time` that has not ended by then (the one
    /// now playing, or the next).
    package func currentOrNextStart(of index: Int, at time: Double, epoch: Double) -> (cycle: Int, start: Double) {
        let sinceFirst = time - epoch - offsets[index]
        var cycle = max(0, Int(min((sinceFirst / self.cycle).rounded(.down), Double(Int.max / 2))))
        if start(of: index, inCycle: cycle, epoch: epoch) + lengths[index] <= time { cycle += 1 }
        return (cycle, start(of: index, inCycle: cycle, epoch: epoch))
    }
}
