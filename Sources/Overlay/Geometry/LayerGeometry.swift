import Foundation

/// What a builder is given: the player area in output pixels and where the picture is in it.
///
/// ```swift
/// // A 1280×720 window showing a 4:3 picture letterboxed in its middle.
/// let geometry = LayerGeometry(frame: CGRect(x: 0, y: 0, width: 1280, height: 720),
///                              videoRect: CGRect(x: 160, y: 0, width: 960, height: 720))
/// ```
public struct LayerGeometry: Sendable, Equatable {
    /// The player area: origin (0, 0) for a window of its own, the host's rectangle when embedded.
    public var frame: CGRect
    /// The player area's size at origin (0, 0): the coordinate space of layers.
    public var bounds: CGRect
    /// The picture's rectangle after gravity, in `bounds` coordinates (larger than the area with fill gravity).
    public var videoRect: CGRect
    /// Output pixels per point (DPI / 96): 1 on a plain X11 display. Font sizes are in points.
    public var scale: Double

    /// `bounds` is `frame`'s size at the origin; `videoRect` defaults to the whole area.
    public init(frame: CGRect, videoRect: CGRect? = nil, scale: Double = 1) {
        self.frame = frame
        self.bounds = CGRect(origin: .zero, size: frame.standardized.size)
        self.videoRect = videoRect ?? bounds
        self.scale = scale
    }

    /// A player area of `width`×`height` pixels at the origin.
    public init(width: Double, height: Double, videoRect: CGRect? = nil, scale: Double = 1) {
        self.init(frame: CGRect(x: 0, y: 0, width: width, height: height), videoRect: videoRect, scale: scale)
    }

    /// True when the area has no pixels (builders are never called with such a geometry).
    package var isEmpty: Bool { !(bounds.width >= 1 && bounds.height >= 1) }

    var isFinite: Bool {
        [frame, bounds, videoRect].allSatisfy { rect in
            [rect.origin.x, rect.origin.y, rect.width, rect.height].allSatisfy { Double($0).isFinite }
        } && scale.isFinite
    }
}
