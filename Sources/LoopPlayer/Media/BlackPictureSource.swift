import CFFmpeg
import Foundation

/// The picture of audio-only media: a black frame every `nominalFrameInterval` of the loop's
/// timeline, made from the audio packets the demuxer also hands to the picture thread (their
/// timestamps say which slots of which pass they cover). Frames never cross the end of a pass.
final class BlackPictureSource: FrameSource, @unchecked Sendable {
    private var picture: UnsafeMutablePointer<AVFrame>?
    private let interval: Int64
    private let timeline: () -> LoopTimeline?
    /// The next slot to show and its pass, so overlapping packets show nothing twice.
    private var next: (pass: Int, slot: Int64)?
    let errorCount = 0

    init(info: VideoStreamInfo, timeline: @escaping () -> LoopTimeline?) {
        interval = max(1, Int64((info.nominalFrameInterval / info.timeBase.seconds).rounded()))
        self.timeline = timeline
        picture = Self.black(width: Int32(info.width), height: Int32(info.height))
    }

    deinit { av_frame_free(&picture) }

    func decode(_ packet: UnsafeMutablePointer<AVPacket>?, emit: (UnsafeMutablePointer<AVFrame>) -> Void) {
        guard let packet, let picture, let line = timeline(), packet.pointee.pts != noTimestamp else { return }
        let pts = packet.pointee.pts
        let end = pts + max(1, packet.pointee.duration)
        let pass = line.pass(of: pts)
        let passStart = line.origin + line.offset(forPass: pass)
        let passEnd = line.loopDuration.map { passStart + $0 } ?? .max
        // The first slot at or after the packet's start.
        var slot = passStart + (max(0, pts - passStart) + interval - 1) / interval * interval
        if let next, next.pass == pass { slot = max(slot, next.slot) }
        while slot < end && slot < passEnd, let frame = av_frame_clone(picture) {
            frame.pointee.pts = slot
            frame.pointee.pkt_duration = min(interval, passEnd - slot)
            emit(frame)
            slot += interval
        }
        next = (pass, slot)
    }

    func flush() { next = nil }

    /// Limited-range BT.709 black in 4:2:0.
    private static func black(width: Int32, height: Int32) -> UnsafeMutablePointer<AVFrame>? {
        guard let frame = av_frame_alloc() else { return nil }
        frame.pointee.width = width
        frame.pointee.height = height
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.colorspace = AVCOL_SPC_BT709
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            var doomed: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&doomed)
            return nil
        }
        let planes = [(frame.pointee.data.0, frame.pointee.linesize.0, height, UInt8(16)),
                      (frame.pointee.data.1, frame.pointee.linesize.1, (height + 1) / 2, UInt8(128)),
                      (frame.pointee.data.2, frame.pointee.linesize.2, (height + 1) / 2, UInt8(128))]
        for (data, linesize, rows, value) in planes {
            data?.update(repeating: value, count: Int(linesize) * Int(rows))
        }
        return frame
    }
}
