import Foundation
import LoopPlayerCore
import LoopPlayerOutput

/// A picture of the screen for a server to send (`GET /snapshot.png` on the metrics server): taken
/// from the scene on screen when the player next runs its queue — so never older than the request —
/// encoded on a snapshot thread, and handed to `deliver` once, on that thread.
package struct SnapshotRequest: Sendable {
    /// Widths a request may ask for.
    package static let widths = 16...7680

    package var content: SnapshotContent
    package var format: SnapshotFormat
    /// Scaled to this width, the height in proportion; nil: the player area's size.
    package var width: Int?
    package var deliver: @Sendable (Result<Data, PlayerError>) -> Void

    package init(content: SnapshotContent = .window, format: SnapshotFormat, width: Int? = nil,
                 deliver: @escaping @Sendable (Result<Data, PlayerError>) -> Void) {
        self.content = content
        self.format = format
        self.width = width
        self.deliver = deliver
    }

    /// The encoded picture of `scene` shown in `area`.
    func picture(of scene: Scene, area: PixelSize) throws(PlayerError) -> Data {
        var image = try Snapshot.image(of: scene, area: area, content: content)
        if let width, width != image.width { image = try Snapshot.scaled(image, toWidth: width) }
        return try Snapshot.encoded(image, as: format)
    }
}
