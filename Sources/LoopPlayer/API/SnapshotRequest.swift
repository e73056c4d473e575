import Foundation
import LoopPlayerCore
import LoopPlayerOutput

/// A picture of the screen for a server to send (`GET /snapshot.png` on the metrics server): taken
/// from the scene on screen when the player next runs its queue (the latest picture shown by then),
/// encoded on a snapshot thread, and handed to `deliver` once, on that thread — unless `abandoned`
/// was raised first (the client went, or its deadline passed), when nothing is made or delivered.
package struct SnapshotRequest: Sendable {
    /// Widths a request may ask for.
    package static let widths = 16...7680

    package var content: SnapshotContent
    package var format: SnapshotFormat
    /// Scaled down to this width, the height in proportion; nil, or wider than the picture: the
    /// picture's own size (never enlarged, so a request cannot ask for more memory than the screen's).
    package var width: Int?
    /// Raised by the asker when the answer is no longer wanted.
    package let abandoned = AbortFlag()
    package var deliver: @Sendable (Result<Data, Failure>) -> Void

    /// Why no picture came.
    package enum Failure: Error, Equatable {
        /// None can be made now (the player is not running, nothing was shown yet, too many are
        /// being made): worth asking again.
        case unavailable(PlayerError)
        /// Making it failed (an encoder, memory).
        case failed(PlayerError)
    }

    package init(content: SnapshotContent = .window, format: SnapshotFormat, width: Int? = nil,
                 deliver: @escaping @Sendable (Result<Data, Failure>) -> Void) {
        self.content = content
        self.format = format
        self.width = width
        self.deliver = deliver
    }

    /// The encoded picture of `scene` shown in `area`.
    func picture(of scene: Scene, area: PixelSize) throws(PlayerError) -> Data {
        var image = try Snapshot.image(of: scene, area: area, content: content)
        if let width, width < image.width { image = try Snapshot.scaled(image, toWidth: width) }
        return try Snapshot.encoded(image, as: format)
    }
}
