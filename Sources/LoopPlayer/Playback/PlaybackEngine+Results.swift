import Foundation

/// What a run produced: statistics and snapshots.
extension PlaybackEngine {
    /// The run's statistics (`RunCounters`): the current source's, or the last one's once it is gone.
    package var statistics: PlaybackStatistics {
        counters.statistics(source: item ?? lastItem, current: item, sound: sound, soundDrift: sync.soundCorrector.drift)
    }

    /// The frame on screen.
    package var currentFrame: VideoFrame? { item?.presenter?.current ?? scene.lastScene?.frame }

    /// What the output shows now — the picture laid out in the player area with the overlays — at the
    /// player area's size (the picture's display size when there is no window); `content` as
    /// `SnapshotContent` says.
    package func snapshot(content: SnapshotContent = .scene) throws(PlayerError) -> RGBImage {
        let (scene, area) = try shownScene()
        return try Snapshot.image(of: scene, area: area, content: content)
    }

    /// The scene on screen and the player area, or why there is none to take.
    private func shownScene() throws(PlayerError) -> (Scene, PixelSize) {
        guard let scene = self.scene.lastScene, scene.frame != nil, let area = output.area else {
            throw .renderFailed(reason: "no frame has been shown yet")
        }
        return (scene, area)
    }

    /// Writes `snapshot()` at `path`, as PNG or JPEG as its extension says (`Snapshot.write`).
    package func writeSnapshot(to path: String) throws(PlayerError) {
        try Snapshot.write(try snapshot(), to: path)
    }

    /// The snapshot key and `screenshot-to-file`: written on its own thread (`SnapshotWriters`).
    /// `done` is called once, with nil when the file is written, from the writer's thread or (no
    /// scene, too many being written: also an error event) this one.
    func writeSnapshotInBackground(to path: String, content: SnapshotContent = .scene,
                                   done: (@Sendable (PlayerError?) -> Void)? = nil) {
        let scene: Scene, area: PixelSize
        do throws(PlayerError) {
            (scene, area) = try shownScene()
        } catch {
            done?(error)
            return
        }
        guard let refusal = snapshots.write(scene, area: area, content: content, to: path, done: done) else { return }
        note(refusal)
        done?(refusal)
    }
}
