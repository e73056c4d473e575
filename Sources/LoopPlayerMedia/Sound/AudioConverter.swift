import CFFmpeg
import FFmpegSupport
import Filters
import LoopPlayerCore

/// Turns placed source audio into the device's format — interleaved 32-bit float at the device's
/// rate and channel count, downmixed by libswresample when the device has fewer channels — and,
/// at a speed other than 1, changes the tempo keeping the pitch (`atempo`). One libavfilter graph.
///
/// Input frames carry their timeline sample index as pts (time base 1/source rate); each output
/// block comes back with the timeline time of its first sample, so the clock can follow.
package final class AudioConverter {
    /// Converted samples: interleaved floats in the device's layout.
    package struct Block {
        package let samples: UnsafePointer<Float>
        package let frames: Int
        /// Timeline seconds of the first sample.
        package let mediaTime: Double
        /// Timeline seconds each output sample stands for (speed / device rate).
        package let secondsPerSample: Double

        /// The first `count` frames of this block (all of them if it has fewer).
        package func prefix(_ count: Int) -> Block {
            Block(samples: samples, frames: min(frames, max(0, count)), mediaTime: mediaTime, secondsPerSample: secondsPerSample)
        }
    }

    package let speed: Double
    /// The frames the graph was configured for: format, rate and channel layout (our own copy:
    /// a custom layout's channel map belongs to the frame).
    private let input: (format: Int32, rate: Int32)
    private var layout = AVChannelLayout()
    private let graph: FilterGraph
    private let sourceRate: Int32
    private let deviceRate: Int32
    /// Timeline index of the first sample pushed: `atempo` counts its output from there.
    private var firstIndex: Int64?

    package init(source frame: UnsafePointer<AVFrame>, device: AudioDeviceFormat, speed: Double) throws(FilterError) {
        self.speed = speed
        input = (frame.pointee.format, frame.pointee.sample_rate)
        sourceRate = frame.pointee.sample_rate
        deviceRate = Int32(device.rate)
        var source = frame.pointee.ch_layout
        av_channel_layout_copy(&layout, &source)
        var described = AVChannelLayout()
        if layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&described, layout.nb_channels)
        } else {
            av_channel_layout_copy(&described, &layout)
        }
        defer { av_channel_layout_uninit(&described) }
        let format = String(cString: av_get_sample_fmt_name(AVSampleFormat(frame.pointee.format)))
        let arguments = "time_base=1/\(sourceRate):sample_rate=\(sourceRate):sample_fmt=\(format)"
            + ":channel_layout=\(Self.describe(described))"
        var chain = Self.tempoChain(speed)
        // Mono on more speakers: the same samples on the front pair, at full level (libswresample
        // would mix a mono "centre" in at −3 dB).
        if layout.nb_channels == 1 && device.channels >= 2 { chain.insert("pan=stereo|c0=c0|c1=c0", at: 0) }
        chain.append("aformat=sample_fmts=flt:sample_rates=\(device.rate):channel_layouts=\(Self.sdlLayout(device.channels))")
        graph = try FilterGraph(source: "abuffer", arguments: arguments, chain: chain.joined(separator: ","),
                                sink: "abuffersink", threads: 1)
    }

    deinit { av_channel_layout_uninit(&layout) }

    /// SDL's channel order for each count (SDL_audio.h), as FFmpeg channel names: FFmpeg's default
    /// layouts differ (its 4.0 has a centre where SDL's quad has two back speakers).
    private static func sdlLayout(_ channels: Int) -> String {
        switch channels {
        case 1: "mono"
        case 2: "FL+FR"
        case 3: "FL+FR+LFE"
        case 4: "FL+FR+BL+BR"
        case 5: "FL+FR+LFE+BL+BR"
        case 6: "FL+FR+FC+LFE+SL+SR"
        case 7: "FL+FR+FC+LFE+BC+SL+SR"
        default: "FL+FR+FC+LFE+BL+BR+SL+SR"
        }
    }

    /// True if `frame` has the format, rate and layout the graph was made for.
    package func accepts(_ frame: UnsafePointer<AVFrame>) -> Bool {
        var other = frame.pointee.ch_layout
        return frame.pointee.format == input.format && frame.pointee.sample_rate == input.rate
            && av_channel_layout_compare(&layout, &other) == 0
    }

    /// Pushes `frame` (pts = timeline sample index) and hands each converted block to `play`
    /// (valid during the call only).
    package func convert(_ frame: borrowing OwnedFrame, play: (Block) -> Void) throws(FilterError) {
        if firstIndex == nil { firstIndex = frame.pointer.pointee.pts }
        try graph.process(frame) { output in deliver(output, to: play) }
    }

    /// Ends the stream: what the graph holds (atempo's look-ahead) comes out.
    package func drain(play: (Block) -> Void) throws(FilterError) {
        try graph.finish { output in deliver(output, to: play) }
    }

    private func deliver(_ output: borrowing OwnedFrame, to play: (Block) -> Void) {
        guard let data = output.pointer.pointee.data.0 else { return }
        // Output pts counts output samples at the device rate from `firstIndex`; at speed s each
        // stands for s samples of the timeline.
        let first = Double(firstIndex ?? 0) / Double(sourceRate)
        let produced = Double(output.pointer.pointee.pts) / Double(deviceRate) - first
        play(Block(samples: UnsafeRawPointer(data).assumingMemoryBound(to: Float.self),
                   frames: Int(output.pointer.pointee.nb_samples), mediaTime: first + produced * speed,
                   secondsPerSample: speed / Double(deviceRate)))
    }

    /// `atempo` takes factors from 0.5 to 100: slower speeds chain several.
    private static func tempoChain(_ speed: Double) -> [String] {
        guard abs(speed - 1) > 1e-6 else { return [] }
        var chain: [String] = []
        var remaining = speed
        while remaining < 0.5 {
            chain.append("atempo=0.5")
            remaining /= 0.5
        }
        chain.append("atempo=\(remaining)")
        return chain
    }

    private static func describe(_ layout: AVChannelLayout) -> String {
        var layout = layout
        var text = [CChar](repeating: 0, count: 128)
        av_channel_layout_describe(&layout, &text, text.count)
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
