import CFFmpeg

/// Making audio frames: silence to pad a pass, a slice to cut one.
enum AudioFrames {
    /// `count` samples of silence in `model`'s format, rate and layout.
    static func silence(like model: UnsafePointer<AVFrame>, count: Int) -> UnsafeMutablePointer<AVFrame>? {
        guard let frame = blank(like: model, count: count) else { return nil }
        av_samples_set_silence(frame.pointee.extended_data, 0, Int32(count), frame.pointee.ch_layout.nb_channels,
                               AVSampleFormat(frame.pointee.format))
        return frame
    }

    /// Samples `start ..< start + count` of `source` as a new frame.
    static func slice(of source: UnsafePointer<AVFrame>, from start: Int, count: Int) -> UnsafeMutablePointer<AVFrame>? {
        guard let frame = blank(like: source, count: count) else { return nil }
        av_samples_copy(frame.pointee.extended_data, source.pointee.extended_data, 0, Int32(start), Int32(count),
                        source.pointee.ch_layout.nb_channels, AVSampleFormat(source.pointee.format))
        return frame
    }

    private static func blank(like model: UnsafePointer<AVFrame>, count: Int) -> UnsafeMutablePointer<AVFrame>? {
        guard count > 0, let frame = av_frame_alloc() else { return nil }
        frame.pointee.format = model.pointee.format
        frame.pointee.sample_rate = model.pointee.sample_rate
        frame.pointee.nb_samples = Int32(count)
        var layout = model.pointee.ch_layout
        if av_channel_layout_copy(&frame.pointee.ch_layout, &layout) < 0 || av_frame_get_buffer(frame, 0) < 0 {
            var doomed: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&doomed)
            return nil
        }
        return frame
    }
}
