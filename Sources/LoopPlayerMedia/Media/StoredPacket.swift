import CFFmpeg
import FFmpegSupport

/// An owned packet kept in a collection (arrays cannot hold noncopyable values): the packets of an
/// external subtitle file read whole before they are decoded, an HLS reader's packets held at a switch.
package final class StoredPacket {  // one thread's: not Sendable (its packet can be written through `pointer`)
    private let packet: OwnedPacket

    package init?() {
        guard let packet = OwnedPacket() else { return nil }
        self.packet = packet
    }

    package var pointer: UnsafeMutablePointer<AVPacket> { packet.pointer }
}
