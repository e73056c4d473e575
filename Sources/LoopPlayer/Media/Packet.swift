import CFFmpeg

/// Owns one `AVPacket`. Handed from the demux thread to a decode thread through a queue;
/// exactly one thread touches it at a time.
final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>
    /// The seek generation that produced this packet (stale packets are dropped, not drained).
    let generation: Int
    /// The loop pass it was read in (set by the demuxer for audio packets).
    var pass = 0

    init?(generation: Int) {
        guard let packet = av_packet_alloc() else { return nil }
        pointer = packet
        self.generation = generation
    }

    var byteCount: Int { Int(pointer.pointee.size) }

    deinit { var packet: UnsafeMutablePointer<AVPacket>? = pointer; av_packet_free(&packet) }
}

/// What flows from the demuxer to a decoder.
enum PacketItem: Sendable {
    case packet(Packet)
    /// The input ended (non-looping playback): drain the decoder.
    case endOfStream(generation: Int)
}
