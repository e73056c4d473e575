import CFFmpeg

/// The single owner of an `AVPacket` (freed with it), moved from the demuxer to a decoder.
public struct OwnedPacket: ~Copyable, @unchecked Sendable {  // unique owner: moving it moves the packet
    public let pointer: UnsafeMutablePointer<AVPacket>

    /// A new, empty packet; nil when out of memory.
    public init?() {
        guard let packet = av_packet_alloc() else { return nil }
        pointer = packet
    }

    /// A new reference to the same data (side data included, e.g. the skip-samples of a rewind).
    public func reference() -> OwnedPacket? {
        guard let copy = OwnedPacket(), av_packet_ref(copy.pointer, pointer) >= 0 else { return nil }
        return copy
    }

    /// What the packet costs a queue's byte budget.
    public var byteCount: Int { Int(pointer.pointee.size) + MemoryLayout<AVPacket>.size }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
