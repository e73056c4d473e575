import CFFmpeg
import FFmpegSupport
import LoopPlayerCore
import Synchronization

/// The picture of audio-only media: a black frame every `nominalFrameInterval` of the loop's
/// timeline, made from the audio packets the demuxer also hands to the picture stage (their
/// timestamps say which slots of which pass they cover). Frames never cross the end of a pass.
/// Used by the picture stage's thread only (its one `Mutex` costs nothing uncontended).
package final class BlackPictureSource: FrameSource, Sendable {
    private let picture: OwnedFrame?
    private let interval: Int64
    /// The next slot to show and its pass, so overlapping packets show nothing twice.
    private let next = Mutex<(pass: Int, slot: Int64)?>(nil)
    package let errorCount = 0

    package init(info: VideoStreamInfo) {
        interval = max(1, Int64((info.nominalFrameInterval / info.timeBase.seconds).rounded()))
        picture = Self.black(width: Int32(info.width), height: Int32(info.height))
    }

    package func decode(_ packet: UnsafeMutablePointer<AVPacket>?, timeline line: LoopTimeline, emit: (consuming OwnedFrame) -> Void) {
        guard let packet, packet.pointee.pts != noTimestamp else { return }
        let pts = packet.pointee.pts
        let end = pts + max(1, packet.pointee.duration)
        let pass = line.pass(of: pts)
        let passStart = line.origin + line.offset(forPass: pass)
        let passEnd = line.loopDuration.map { passStart + $0 }  // unknown while pass 0 is read
        // The first slot at or after the packet's start.
        var slot = passStart + (max(0, pts - passStart) + interval - 1) / interval * interval
        if let next = next.withLock({ $0 }), next.pass == pass { slot = max(slot, next.slot) }
        while slot < end && slot < (passEnd ?? .max), let frame = picture?.reference() {
            frame.pointer.pointee.pts = slot
            frame.pointer.pointee.best_effort_timestamp = slot
            frame.pointer.pointee.pkt_duration = passEnd.map { min(interval, $0 - slot) } ?? interval
            emit(frame)
            slot += interval
        }
        next.withLock { $0 = (pass, slot) }
    }

    package func flush() { next.withLock { $0 = nil } }

    /// Limited-range BT.709 black in 4:2:0.
    private static func black(width: Int32, height: Int32) -> OwnedFrame? {
        guard let frame = OwnedFrame() else { return nil }
        let picture = frame.pointer
        picture.pointee.width = width
        picture.pointee.height = height
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.color_range = AVCOL_RANGE_MPEG
        picture.pointee.colorspace = AVCOL_SPC_BT709
        guard av_frame_get_buffer(picture, 0) >= 0 else { return nil }
        let planes = [(picture.pointee.data.0, picture.pointee.linesize.0, height, UInt8(16)),
                      (picture.pointee.data.1, picture.pointee.linesize.1, (height + 1) / 2, UInt8(128)),
                      (picture.pointee.data.2, picture.pointee.linesize.2, (height + 1) / 2, UInt8(128))]
        for (data, linesize, rows, value) in planes {
            data?.update(repeating: value, count: Int(linesize) * Int(rows))
        }
        return frame
    }
}
