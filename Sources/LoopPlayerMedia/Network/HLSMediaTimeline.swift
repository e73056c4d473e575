/// A media playlist, its segments judged by the policy, with the times the schedule needs: where
/// each segment starts inside a pass, and when a live playlist is due to be reloaded.
package struct HLSMediaTimeline: Sendable {
    package var playlist: HLSMediaPlaylist
    /// Start of each segment inside the playlist (seconds).
    package var starts: [Double]
    private var loadedAt: Double
    /// When a load last brought a segment not seen before (live).
    package var changedAt: Double
    /// The last reload brought nothing new (live: the next one comes sooner).
    package var unchanged = false
    /// Why the last reload failed, if it did (live).
    package var reloadError: HLSLoadError?

    package init(_ playlist: HLSMediaPlaylist, at now: Double) {
        self.playlist = playlist
        var time = 0.0
        starts = playlist.segments.map { segment in
            defer { time += segment.duration }
            return time
        }
        loadedAt = now
        changedAt = now
    }

    package var duration: Double { (starts.last ?? 0) + (playlist.segments.last?.duration ?? 0) }

    /// The segment to fetch for `time` inside the pass: the one starting there (within a
    /// tolerance for rounded durations), else the first starting later; nil past the end.
    package func index(startingAt time: Double) -> Int? {
        guard !starts.isEmpty else { return nil }
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < time { low = middle + 1 } else { high = middle }
        }
        // `low`: the first segment starting at or after `time`; the one before may start just before.
        if low > 0 {
            let before = low - 1
            let tolerance = min(0.5, playlist.segments[before].duration / 4)
            if time - starts[before] <= tolerance { return before }
        }
        return low < starts.count ? low : nil
    }

    /// The segment holding `time` (for a seek).
    package func index(containing time: Double) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= time + 1e-6 { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// The start of the segment holding `time`; 0 for an empty playlist.
    package func start(ofSegmentContaining time: Double) -> Double {
        starts.isEmpty ? 0 : starts[index(containing: time)]
    }

    /// Where live playback starts: about three target durations before the end (RFC 8216 §6.3.3).
    package var liveStartSequence: Int {
        var remaining = 0.0
        var index = playlist.segments.count
        while index > 0 && remaining < 3 * playlist.targetDuration {
            index -= 1
            remaining += playlist.segments[index].duration
        }
        return playlist.mediaSequence + index
    }

    // MARK: Live reloads

    /// When a live playlist is due again: a target duration after the last load, half of it when
    /// that load brought nothing new (RFC 8216 §6.3.4).
    package var reloadTime: Double {
        let target = max(0.1, playlist.targetDuration)
        return loadedAt + (unchanged ? target / 2 : target)
    }

    /// The timeline of `playlist`, reloaded at `now` to replace this one: it remembers when the
    /// playlist last grew, so a live stream that stops growing can be given up.
    package func reloaded(with playlist: HLSMediaPlaylist, at now: Double) -> HLSMediaTimeline {
        var media = HLSMediaTimeline(playlist, at: now)
        let newest = { (list: HLSMediaPlaylist) in list.mediaSequence + list.segments.count }
        let grew = newest(playlist) > newest(self.playlist) || (playlist.hasEndList && !self.playlist.hasEndList)
        media.changedAt = grew ? now : changedAt
        media.unchanged = !grew
        return media
    }

    /// This timeline kept after a reload at `now` failed transiently: tried again at the next
    /// reload time, the error kept for when the stream is given up.
    package func failedReload(_ error: HLSLoadError, at now: Double) -> HLSMediaTimeline {
        var media = self
        media.loadedAt = now
        media.unchanged = true
        media.reloadError = error
        return media
    }
}
