import Foundation
import Synchronization
import LoopPlayerCore

/// Segments of a VOD presentation kept in memory within a byte budget, so the later passes of a
/// short loop never touch the network (a kiosk's loop then survives losing it).
///
/// What a loop needs is all of one variant's segments, so the rule is not "least recently used"
/// (which, for a loop, always evicts the next segment): a segment of variant v is kept while the
/// total fits; when it does not, the other variants' segments go first, and a variant that alone
/// exceeds the budget is not cached at all (its segments are released and no longer collected).
package final class SegmentCache: Sendable {
    package struct Key: Hashable, Sendable {
        package var url: URL
        package var offset: Int?
        package var length: Int?

        package init(url: URL, range: HLSByteRange?) {
            self.url = url
            offset = range?.offset
            length = range?.length
        }
    }

    private struct Entry {
        var bytes: [UInt8]
        var variant: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        /// Variants too large for the budget.
        var refused: Set<Int> = []
    }

    package let budget: Int
    private let state = Mutex(State())

    package init(budget: Int) { self.budget = max(0, budget) }

    /// Bytes held now.
    package var byteCount: Int { state.withLock { $0.bytes } }

    package func bytes(for key: Key) -> [UInt8]? { state.withLock { $0.entries[key]?.bytes } }

    /// Whether segments of `variant` are still collected.
    package func accepts(variant: Int) -> Bool {
        budget > 0 && state.withLock { !$0.refused.contains(variant) }
    }

    /// Whether `count` bytes of one segment could still be kept: a segment larger than the whole
    /// budget never can, and its collection stops there (an endless segment costs nothing).
    package func canHold(_ count: Int) -> Bool { count <= budget }

    /// Stops collecting `variant`: one of its segments alone exceeds the budget.
    package func refuse(variant: Int) {
        state.withLock { state in
            guard state.refused.insert(variant).inserted else { return }
            for (key, entry) in state.entries where entry.variant == variant {
                state.entries[key] = nil
                state.bytes -= entry.bytes.count
            }
        }
        logger.info("HLS segment cache: a segment of variant \(variant) exceeds \(budget) bytes; not cached")
    }

    /// Keeps `bytes` for `key` if the rule above allows.
    package func store(_ bytes: [UInt8], for key: Key, variant: Int) {
        guard budget > 0 else { return }
        state.withLock { state in
            guard !state.refused.contains(variant), state.entries[key] == nil else { return }
            state.entries[key] = Entry(bytes: bytes, variant: variant)
            state.bytes += bytes.count
            guard state.bytes > budget else { return }
            for (other, entry) in state.entries where entry.variant != variant {
                state.entries[other] = nil
                state.bytes -= entry.bytes.count
            }
            guard state.bytes > budget else { return }
            state.entries.removeAll()
            state.bytes = 0
            state.refused.insert(variant)
            logger.info("HLS segment cache: variant \(variant) does not fit in \(budget) bytes; not cached")
        }
    }
}
