/// Interleaved float samples waiting for the device, with the timeline time of each stretch so the
/// clock knows what is being played. Not thread-safe: `SoundOutput` guards it.
package struct AudioRing {
    /// A run of samples written together: where it starts in the ring's running count, the timeline
    /// time of its first sample, the timeline seconds per sample (speed / rate) and the writer's epoch
    /// (the playlist item whose timeline it is).
    private struct Stretch {
        var start: Int64
        var mediaTime: Double
        var step: Double
        var epoch: Int
    }

    package let channels: Int
    package let capacity: Int
    private var storage: [Float]
    /// Frames ever written and read: their difference is what is buffered.
    package private(set) var written: Int64 = 0
    package private(set) var read: Int64 = 0
    private var stretches: [Stretch] = []

    package init(channels: Int, capacity: Int) {
        self.channels = channels
        self.capacity = capacity
        storage = [Float](repeating: 0, count: channels * capacity)
    }

    package var buffered: Int { Int(written - read) }
    package var space: Int { capacity - buffered }

    /// Appends up to `space` frames from `samples`; returns how many were taken.
    package mutating func append(_ samples: UnsafePointer<Float>, frames: Int, mediaTime: Double, step: Double, epoch: Int = 0) -> Int {
        let count = min(frames, space)
        guard count > 0 else { return 0 }
        if let last = stretches.last, abs(last.mediaTime + Double(written - last.start) * last.step - mediaTime) < step / 2,
           last.step == step, last.epoch == epoch {
            // Continues the previous stretch: nothing to record.
        } else {
            stretches.append(Stretch(start: written, mediaTime: mediaTime, step: step, epoch: epoch))
        }
        storage.withUnsafeMutableBufferPointer { ring in
            guard let base = ring.baseAddress else { return }  // never: the ring has room for a buffer
            var done = 0
            while done < count {
                let slot = Int((written + Int64(done)) % Int64(capacity))
                let run = min(count - done, capacity - slot)
                (base + slot * channels).update(from: samples + done * channels, count: run * channels)
                done += run
            }
        }
        written += Int64(count)
        return count
    }

    /// Keeps only the next `frames` frames (the rest is dropped from the end).
    package mutating func truncate(keeping frames: Int) {
        written = read + Int64(min(frames, buffered))
        stretches.removeAll { $0.start >= written && $0.start > read }
    }

    /// Drops the next `frames` frames unplayed.
    package mutating func discard(_ frames: Int) {
        read += Int64(min(frames, buffered))
        dropPlayedStretches()
    }

    /// Frames queued before the first written by writer `epoch` (all of them if it wrote none).
    package func buffered(before epoch: Int) -> Int {
        guard let first = stretches.first(where: { $0.epoch == epoch }) else { return buffered }
        return Int(max(0, min(Int64(buffered), first.start - read)))
    }

    /// Timeline time, step and epoch of the next frame to be read.
    package var nextMediaTime: (time: Double, step: Double, epoch: Int)? {
        guard buffered > 0, let stretch = stretches.last(where: { $0.start <= read }) else { return nil }
        return (stretch.mediaTime + Double(read - stretch.start) * stretch.step, stretch.step, stretch.epoch)
    }

    /// Moves up to `frames` frames into `output`, scaled by a gain going linearly from `gain.from`
    /// to `gain.to` over `total` frames. Returns how many were moved.
    package mutating func take(into output: UnsafeMutablePointer<Float>, frames: Int, gain: (from: Float, to: Float), total: Int) -> Int {
        let count = min(frames, buffered)
        let slope = (gain.to - gain.from) / Float(max(1, total))
        storage.withUnsafeBufferPointer { ring in
            for frame in 0..<count {
                let slot = Int((read + Int64(frame)) % Int64(capacity))
                let scale = gain.from + slope * Float(frame + 1)
                for channel in 0..<channels {
                    output[frame * channels + channel] = ring[slot * channels + channel] * scale
                }
            }
        }
        read += Int64(count)
        dropPlayedStretches()
        return count
    }

    /// Keeps only the stretch the next frame is in and those after it.
    private mutating func dropPlayedStretches() {
        if let current = stretches.lastIndex(where: { $0.start <= read }), current > 0 {
            stretches.removeFirst(current)
        }
    }
}
