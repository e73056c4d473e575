/// A playlist's items and where playback is in it. Pure: the session asks what to play and queue,
/// and tells it what happened (an item started, failed; the user skipped, inserted, removed).
package struct PlaylistState: Equatable {
    package private(set) var items: [String]
    /// The item playing (or loading).
    package private(set) var current: Int
    package var loops: Bool
    /// How many passes through the list a looping list plays (nil: forever; mpv's
    /// `--loop-playlist=N`).
    package var passes: Int?
    /// Passes begun: the first, then one each time the list starts again after its last item.
    package private(set) var passesBegun = 1
    private var started = false
    /// Items that failed one after the other: once every item has failed in a row, the list stops
    /// instead of cycling through broken sources forever.
    private var failuresInARow = 0

    package init(items: [String], loops: Bool, passes: Int? = nil) {
        self.items = items
        self.loops = loops
        self.passes = passes
        current = 0
    }

    /// The item to play after the current one: the next, the first again when looping, or nil.
    package var nextIndex: Int? { index(after: current) }

    /// The item before the current one (the last from the first when looping; else the first).
    package var previousIndex: Int {
        if current > 0 { return current - 1 }
        return loops ? items.count - 1 : 0
    }

    package func index(after index: Int) -> Int? {
        guard !items.isEmpty else { return nil }
        if index + 1 < items.count { return index + 1 }
        guard loops, passes.map({ passesBegun < $0 }) ?? true else { return nil }
        return 0
    }

    /// Playback moved to `index` (skipped to, or the next one took over). `inOrder`: it is the item
    /// that follows (the next one, or the one after items that failed): going back to or before the
    /// current one, the list started again (a new pass), whichever items were skipped. A jump the
    /// user asked for starts a pass only from the last item to the first. False if outside the list.
    @discardableResult
    package mutating func move(to index: Int, inOrder: Bool = false) -> Bool {
        guard items.indices.contains(index) else { return false }
        if started, inOrder ? index <= current : (index == 0 && current == items.count - 1 && index != current) {
            passesBegun += 1
        }
        started = true
        current = index
        return true
    }

    /// The current item showed a frame: the failure streak ends.
    package mutating func played() { failuresInARow = 0 }

    /// A retry: the items get their chances again, starting with the current one.
    package mutating func forgetFailures() { failuresInARow = 0 }

    /// An item failed; returns whether the list should go on (not every item failed in a row).
    package mutating func failed() -> Bool {
        failuresInARow += 1
        return failuresInARow < items.count
    }

    /// Inserts `source` at `index` (clamped to 0…count); the current item stays current.
    /// Returns where it went.
    @discardableResult
    package mutating func insert(_ source: String, at index: Int) -> Int {
        let position = min(max(index, 0), items.count)
        items.insert(source, at: position)
        if position <= current && items.count > 1 { current += 1 }
        return position
    }

    /// What a removal means for playback.
    package enum Removal: Equatable {
        case outside
        /// Another item went; the current one plays on (its index may have moved).
        case other
        /// The current item went: play `next` (nil: the list has nothing left to play).
        case current(next: Int?)
    }

    /// Keeps the current item alone (none if it was removed).
    package mutating func removeAllButCurrent() {
        items = items.indices.contains(current) ? [items[current]] : []
        current = 0
    }

    package mutating func remove(at index: Int) -> Removal {
        guard items.indices.contains(index) else { return .outside }
        items.remove(at: index)
        if index < current {
            current -= 1
            return .other
        }
        if index > current { return .other }
        // The item that followed now sits at `index`.
        if index < items.count { return .current(next: index) }
        current = max(0, items.count - 1)  // stays a valid index
        return .current(next: loops && !items.isEmpty ? 0 : nil)
    }
}
