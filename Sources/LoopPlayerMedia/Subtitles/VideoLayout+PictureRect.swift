import Foundation
import LoopPlayerCore

extension VideoLayout {
    /// Where the whole picture lands in the player area: the subtitle renderers' `videoRect`.
    /// With letterboxing and stretching it is the destination; when filling, the destination
    /// extended by the part of the picture the source rectangle crops away (centred), so it
    /// overflows the area.
    package func pictureRect(for geometry: VideoGeometry) -> CGRect {
        let turned = geometry.isQuarterTurn
        let shownWidth = turned ? source.height : source.width, shownHeight = turned ? source.width : source.height
        let fullWidth = Double(turned ? geometry.height : geometry.width)
        let fullHeight = Double(turned ? geometry.width : geometry.height)
        guard shownWidth > 0, shownHeight > 0 else {
            return CGRect(x: destination.x, y: destination.y, width: destination.width, height: destination.height)
        }
        let width = destination.width * fullWidth / shownWidth, height = destination.height * fullHeight / shownHeight
        return CGRect(x: destination.x + (destination.width - width) / 2, y: destination.y + (destination.height - height) / 2,
                      width: width, height: height)
    }
}
