/// The engine on a shared timeline: `TimelineSync` follows it; the engine hands it the item on
/// screen before each presenting decision and seeks where it says. Engine thread only.
extension PlaybackEngine {
    /// Joined a shared timeline whose epoch is still to come, the first picture decoded and waiting
    /// for it (the source opened and decodes: the player is up).
    package var isWaitingForEpoch: Bool { !isFailed && timelineSync.isWaitingForEpoch }

    /// Follows `timeline` from now on (nil: the player's own clock again): playing, at speed 1.
    package func setSyncTimeline(_ timeline: SharedTimeline?) {
        timelineSync.follow(timeline, presenter: item?.presenter)
        if timeline != nil {
            setSpeed(1)
            setPaused(false)
        }
        waiter.wake()
    }

    /// Keeps the current source on the shared timeline (`TimelineSync.keepInStep`).
    func keepInStep() {
        guard let item, let presenter = item.presenter, !isFailed else { return }
        timelineSync.keepInStep(item, presenter: presenter, length: duration, playerPass: pictureSpot?.pass ?? 0) {
            seek(to: $0, inPass: $1, announce: false) != nil
        }
    }
}
