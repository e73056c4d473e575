import CFFmpeg
import LoopPlayerCore

/// Resamples converted sound (interleaved floats at the device's rate) a little faster or slower,
/// with libswresample's soft compensation (`swr_set_compensation`, as ffplay and mpv keep sound on
/// another clock): the pitch moves by the rate's fraction, nothing is dropped or repeated. One
/// owner of its `SwrContext`; the sound stage's thread only.
package final class DriftResampler {
    /// Converted samples: valid until the next call.
    package struct Block {
        package let samples: UnsafePointer<Float>
        package let frames: Int
        /// Timeline seconds of the first sample.
        package let mediaTime: Double
        /// Timeline seconds each output sample stands for.
        package let secondsPerSample: Double
    }

    private var context: OpaquePointer?
    private let channels: Int
    private let rate: Int
    private var output: UnsafeMutablePointer<Float>
    private var capacity: Int
    /// Compensation is set over this many output samples (ten seconds), and again with every block.
    private let distance: Int32

    /// Nil if libswresample refuses the format.
    package init?(channels: Int, rate: Int) {
        self.channels = channels
        self.rate = rate
        distance = Int32(rate * 10)
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        var sameLayout = layout  // a default layout holds no pointer: a plain copy
        defer { av_channel_layout_uninit(&layout) }
        var made: OpaquePointer?
        guard swr_alloc_set_opts2(&made, &layout, AV_SAMPLE_FMT_FLT, Int32(rate), &sameLayout, AV_SAMPLE_FMT_FLT,
                                  Int32(rate), 0, nil) >= 0, let allocated = made else { return nil }
        // The resampler from the start: compensation set later would re-initialise the context.
        av_opt_set_int(UnsafeMutableRawPointer(allocated), "flags", Int64(SWR_FLAG_RESAMPLE), 0)
        guard swr_init(allocated) >= 0 else {
            swr_free(&made)
            return nil
        }
        context = allocated
        capacity = rate / 10
        output = .allocate(capacity: capacity * channels)
    }

    deinit {
        swr_free(&context)
        output.deallocate()
    }

    /// Resamples `frames` frames starting at timeline time `mediaTime` (`step` timeline seconds per
    /// sample) at `speed` times their rate (1.001: 0.1 % faster, fewer samples out; at most 10 %
    /// either way). Nil if libswresample fails; a block of 0 frames while its filter fills.
    package func resample(_ samples: UnsafePointer<Float>, frames: Int, mediaTime: Double, step: Double,
                          speed requested: Double) -> Block? {
        let speed = requested.isFinite ? requested.clamped(to: 0.9...1.1) : 1
        // Extra output samples over `distance` output samples (which take `distance × speed` in):
        // negative to play faster.
        let delta = Int32((Double(distance) * (1 - speed)).rounded())
        swr_set_compensation(context, delta, distance)
        let wanted = frames + frames / 8 + 64  // at the slowest, 0.9: 11 % more out
        if wanted > capacity {
            output.deallocate()
            capacity = wanted
            output = .allocate(capacity: capacity * channels)
        }
        var input: UnsafePointer<UInt8>? = UnsafeRawPointer(samples).assumingMemoryBound(to: UInt8.self)
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
        let made = swr_convert(context, &out, Int32(capacity), &input, Int32(max(0, frames)))
        guard made >= 0 else { return nil }
        // The last sample out is the one `delay` input samples before the input's end.
        let delay = Double(swr_get_delay(context, Int64(rate)))
        let outStep = step * speed
        let end = mediaTime + (Double(frames) - delay) * step
        return Block(samples: output, frames: Int(made), mediaTime: end - Double(made) * outStep, secondsPerSample: outStep)
    }
}
