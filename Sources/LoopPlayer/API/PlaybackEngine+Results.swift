import Foundation

/// What a run produced: statistics and snapshots.
extension PlaybackEngine {
    public var statistics: PlaybackStatistics {
        var statistics = presenter?.statistics ?? PlaybackStatistics()
        if let info = videoInfo { statistics.nominalFrameIntervalMs = info.nominalFrameInterval * 1000 }
        statistics.framesDecoded = pipeline?.status.framesDecoded ?? 0
        statistics.decodeErrors = pipeline?.status.decodeErrors ?? 0
        statistics.loopDurationMs = pipeline?.status.loopDuration.map { $0 * 1000 }
        statistics.firstFrameMs = firstFrameMs
        statistics.peakRSSBytes = ProcessUsage.peakRSSBytes
        statistics.cpuSeconds = ProcessUsage.cpuSeconds
        statistics.errors = errorCounts
        statistics.audioDevice = pipeline?.audio.output?.format
        statistics.audioUnderruns = pipeline?.audio.output?.underruns ?? 0
        return statistics
    }

    /// The frame on screen.
    public var currentFrame: VideoFrame? { presenter?.current }

    /// The frame on screen as a viewer sees it at the video's own size.
    public func snapshot() throws(PlayerError) -> RGBImage {
        guard let frame = presenter?.current else {
            throw .renderFailed(reason: "no frame has been shown yet")
        }
        return try Snapshot.image(of: frame, geometry: frame.geometry)
    }

    /// Writes `snapshot()` as a PNG file.
    public func writeSnapshot(to path: String) throws(PlayerError) {
        try Snapshot.writePNG(try snapshot(), to: path)
    }

    /// The `s` key: converting and encoding a 1080p PNG takes long enough to drop frames, so it
    /// happens on its own thread, from the frame on screen (frames are immutable once shown).
    func writeSnapshotInBackground() {
        guard let frame = presenter?.current else { return }
        let path = "loopplay-\(Int(Date().timeIntervalSince1970 * 1000)).png"
        snapshotWriters.append(WorkerThread(name: "lp-snapshot") {
            do {
                try Snapshot.writePNG(try Snapshot.image(of: frame, geometry: frame.geometry), to: path)
                logger.notice("snapshot written to \(path)")
            } catch {
                logger.error("\(String(describing: error))")
            }
        })
    }
}
