import CFFmpeg
import FFmpegSupport

/// Making audio frames: silence to pad a pass, a slice to cut one.
package enum AudioFrames {
    /// `count` samples of silence in `model`'s format, rate and layout.
    package static func silence(like model: UnsafePointer<AVFrame>, count: Int) -> OwnedFrame? {
        guard let frame = blank(like: model, count: count) else { return nil }
        av_samples_set_silence(frame.pointer.pointee.extended_data, 0, Int32(count),
                               frame.pointer.pointee.ch_layout.nb_channels, AVSampleFormat(frame.pointer.pointee.format))
        return frame
    }

    /// Samples `start ..< start + count` of `source` as a new frame.
    package static func slice(of source: UnsafePointer<AVFrame>, from start: Int, count: Int) -> OwnedFrame? {
        guard let frame = blank(like: source, count: count) else { return nil }
        av_samples_copy(frame.pointer.pointee.extended_data, source.pointee.extended_data, 0, Int32(start), Int32(count),
                        source.pointee.ch_layout.nb_channels, AVSampleFormat(source.pointee.format))
        return frame
    }

    private static func blank(like model: UnsafePointer<AVFrame>, count: Int) -> OwnedFrame? {
        guard count > 0, let frame = OwnedFrame() else { return nil }
        let made = frame.pointer
        made.pointee.format = model.pointee.format
        made.pointee.sample_rate = model.pointee.sample_rate
        made.pointee.nb_samples = Int32(count)
        var layout = model.pointee.ch_layout
        guard av_channel_layout_copy(&made.pointee.ch_layout, &layout) >= 0, av_frame_get_buffer(made, 0) >= 0 else {
            return nil
        }
        return frame
    }
}
