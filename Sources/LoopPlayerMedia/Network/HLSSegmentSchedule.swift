import LoopPlayerCore

/// Which segment the HLS schedule names next, and how much is fetched ahead of the picture.
///
/// - **VOD**: by time inside the pass, so a switch continues at the same moment in another
///   variant; after the last segment the next pass starts at segment 0 (looping), or the
///   stream ends. An fMP4 segment that starts a new pass starts a new container.
/// - **Live**: by media sequence number, from the live edge of the first load on. If the window
///   slid past the next segment, the oldest listed one follows.
package struct HLSSegmentSchedule {
    package init() {}

    private enum Cursor {
        /// The next segment starts at `time` inside pass `pass`.
        case vod(pass: Int, time: Double)
        /// The next segment has this media sequence number (nil: the live edge of the next load).
        case live(sequence: Int?)
    }

    /// What a live playlist offers the schedule.
    package enum LiveStep {
        case segment(HLSByteStream.Segment)
        /// The playlist ended (`EXT-X-ENDLIST`) before the next segment.
        case end
        /// The next segment is not listed yet: reload and try again.
        case notListedYet
    }

    private var cursor = Cursor.vod(pass: 0, time: 0)
    private var lastPass = 0
    /// Timeline seconds of the last picture packet the demuxer read, and its segment's index.
    private var demuxed: (time: Double, index: Int)?
    /// Delivered segments the demuxer has not reached: (schedule index, seconds).
    private var ahead: [(index: Int, duration: Double)] = []
    /// Bytes delivered for the pass being fetched: a pass that brought none cannot loop.
    private var bytesThisPass = -1

    /// A new stream: live from the edge, VOD from `start` (a segment's start) inside `pass`.
    package mutating func restart(live: Bool, at start: Double, pass: Int) {
        cursor = live ? .live(sequence: nil) : .vod(pass: pass, time: start)
        lastPass = pass
        demuxed = nil
        ahead.removeAll()
        bytesThisPass = -1  // unknown until a segment of this pass is delivered
    }

    /// The demuxer read a picture packet at timeline `time` from the segment of schedule `index`.
    /// True if it reached a delivered segment (the buffer ahead shrank).
    @discardableResult
    package mutating func noteDemuxed(time: Double, segmentIndex index: Int) -> Bool {
        demuxed = (time, index)
        guard let first = ahead.first, first.index <= index else { return false }
        ahead.removeAll { $0.index <= index }
        return true
    }

    /// A segment was delivered to the pipe: it counts as fetched ahead until the demuxer reaches it.
    package mutating func noteDelivered(index: Int, duration: Double, bytes: Int = 1) {
        bytesThisPass = max(0, bytesThisPass) + bytes
        ahead.append((index, duration))
        // Kept bounded: the oldest half goes when the demuxer falls far behind (or never reports).
        if ahead.count > 4096 { ahead.removeFirst(2048) }
    }

    /// Seconds of media fetched ahead of the picture at `presented`: what the demuxer read beyond
    /// it, and the delivered segments it has not reached.
    package func bufferSeconds(presented: Double?) -> Double {
        let aheadSeconds = ahead.reduce(0) { $0 + $1.duration }
        guard let demuxed, let presented else { return aheadSeconds }
        return max(0, demuxed.time - presented) + aheadSeconds
    }

    /// The VOD segment after the last one named, from `variant`'s `media`; at the end, the first of
    /// the next pass when `looping`, else nil. `streamIndex` is the segment's index in the stream.
    package mutating func nextVOD(in media: HLSMediaTimeline, variant: Int, streamIndex: Int,
                          looping: Bool) -> HLSByteStream.Segment? {
        guard case .vod(var pass, var time) = cursor else { return nil }
        var found = media.index(startingAt: time)
        if found == nil {
            // A pass that lasts nothing or brought no byte would loop forever over nothing: it ends.
            guard looping, media.duration > 0, bytesThisPass != 0 else { return nil }
            bytesThisPass = 0
            pass += 1
            time = 0
            found = media.playlist.segments.isEmpty ? nil : 0
        }
        guard let position = found else { return nil }
        let entry = media.playlist.segments[position]
        cursor = .vod(pass: pass, time: media.starts[position] + entry.duration)
        var segment = HLSByteStream.Segment(entry, variant: variant, pass: pass)
        segment.restartsContainer = pass != lastPass && streamIndex > 0
        lastPass = pass
        return segment
    }

    /// The live segment after the last one named, if `variant`'s `media` lists it.
    package mutating func nextLive(in media: HLSMediaTimeline, variant: Int) -> LiveStep {
        guard case .live(let wanted) = cursor else { return .end }
        let playlist = media.playlist
        var sequence = wanted ?? media.liveStartSequence
        let first = playlist.mediaSequence
        if sequence < first {
            logger.notice("HLS live: the playlist slid past segment \(sequence); continuing at \(first)")
            sequence = first
        }
        let position = sequence - first
        if position < playlist.segments.count {
            cursor = .live(sequence: sequence + 1)
            var segment = HLSByteStream.Segment(playlist.segments[position], variant: variant)
            segment.cacheable = false
            return .segment(segment)
        }
        cursor = .live(sequence: sequence)
        return playlist.hasEndList ? .end : .notListedYet
    }
}
