import Foundation

/// What a run produced: statistics and snapshots.
extension PlaybackEngine {
    package var statistics: PlaybackStatistics {
        let source = item ?? lastItem
        var statistics = source?.presenter?.statistics ?? PlaybackStatistics()
        if let info = source?.info { statistics.nominalFrameIntervalMs = info.nominalFrameInterval * 1000 }
        statistics.framesDecoded = earlierItems.decoded + (source?.pipeline.status.framesDecoded ?? 0)
        statistics.framesReplayed = earlierItems.replayed + (source?.pipeline.status.framesReplayed ?? 0)
        statistics.decodeErrors = earlierItems.errors + (source?.pipeline.status.decodeErrors ?? 0)
        statistics.loopDurationMs = source?.pipeline.status.loopDuration.map { $0 * 1000 }
        statistics.firstFrameMs = firstFrameMsOfLoad
        statistics.peakRSSBytes = ProcessUsage.peakRSSBytes
        statistics.cpuSeconds = ProcessUsage.cpuSeconds
        statistics.errors = errorCounts
        statistics.audioDevice = sound.format
        statistics.audioUnderruns = sound.underruns - underrunsBeforeLoad
        // Once the sound was measured against the timeline (a driver that is no clock never is).
        if statistics.syncSoundOffsetSamples > 0, sound.rateCorrection != nil {
            statistics.syncSoundCorrectionPpm = sync.soundCorrector.drift * 1e6
        }
        statistics.subtitleTrack = source?.subtitles.currentTrack?.label
        statistics.sinceStart = earlierLoads + PlaybackStatistics.Totals(of: statistics)
        if let readAhead = item?.pipeline.readAhead {
            (statistics.readAheadPackets, statistics.readAheadBytes) = readAhead
        }
        return statistics
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

    /// The snapshot key and `screenshot-to-file`: converting and encoding a 1080p PNG takes long
    /// enough to drop frames, so it happens on its own thread, from the scene on screen (frames and
    /// planes are immutable). At most `maximumSnapshotWriters` write at once (each holds a whole
    /// picture): one asked for beyond them is refused with an error event, so a remote control's
    /// loop cannot pile them up. `done` is called once, with nil when the file is written, from
    /// the writer's thread or (a refusal) this one. No writer waits on a reader: a FIFO or a device
    /// is refused (`Snapshot.writeFile`).
    func writeSnapshotInBackground(to path: String, content: SnapshotContent = .scene,
                                   done: (@Sendable (PlayerError?) -> Void)? = nil) {
        let scene: Scene, area: PixelSize
        do throws(PlayerError) {
            (scene, area) = try shownScene()
        } catch {
            done?(error)
            return
        }
        snapshotWriters.removeAll { writer in
            guard writer.done.isRaised else { return false }
            writer.thread.join()
            return true
        }
        guard snapshotWriters.count < Self.maximumSnapshotWriters else {
            let error = PlayerError.invalidSetting(name: "screenshot", value: path,
                                                   reason: "\(Self.maximumSnapshotWriters) snapshots are being written; try again")
            record(error)
            emit(.error(error))
            done?(error)
            return
        }
        let finished = AbortFlag()
        snapshotWriters.append((WorkerThread(name: "lp-snapshot") {
            var failure: PlayerError?
            do throws(PlayerError) {
                try Snapshot.write(try Snapshot.image(of: scene, area: area, content: content), to: path)
                logger.notice("snapshot written to \(path)")
            } catch {
                logger.error("\(error.description)")
                failure = error
            }
            finished.raise()
            done?(failure)
        }, finished))
    }

    static let maximumSnapshotWriters = 2
}
