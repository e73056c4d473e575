import CFFmpeg

/// The single owner of an `AVPacket` (freed with it), moved from the demuxer to a decoder.
package struct OwnedPacket: ~Copyable, @unchecked Sendable {  // unique owner: moving it moves the packet
    package let pointer: UnsafeMutablePointer<AVPacket>

    /// A new, empty packet; nil when out of memory.
    package init?() {
        guard let packet = av_packet_alloc() else { return nil }
        pointer = packet
    }

    /// A new reference to the same data (side data included, e.g. the skip-samples of a rewind).
    package func reference() -> OwnedPacket? {
        guard let copy = OwnedPacket(), av_packet_ref(copy.pointer, pointer) >= 0 else { return nil }
        return copy
    }

    /// What the packet costs a queue's byte budget.
    package var byteCount: Int { Int(pointer.pointee.size) + MemoryLayout<AVPacket>.size }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
