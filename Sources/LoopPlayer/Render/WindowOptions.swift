/// How the player's own window looks at start.
public struct WindowOptions: Sendable, Equatable {
    public var title: String?
    /// Initial size; nil = the video's display size (shrunk to fit the screen).
    public var size: (width: Int, height: Int)?
    public var fullscreen: Bool
    public var output: VideoOutputKind

    public init(title: String? = nil, size: (width: Int, height: Int)? = nil, fullscreen: Bool = false,
                output: VideoOutputKind = .automatic) {
        self.title = title
        self.size = size
        self.fullscreen = fullscreen
        self.output = output
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.title == rhs.title && lhs.size?.width == rhs.size?.width && lhs.size?.height == rhs.size?.height
            && lhs.fullscreen == rhs.fullscreen && lhs.output == rhs.output
    }
}

/// How decoded pictures reach the window.
public enum VideoOutputKind: String, Sendable, CaseIterable {
    /// GPU textures when a real GPU renderer exists; otherwise the cheaper software path
    /// (swscale into the window surface; see docs/benchmarks.md for the measurement).
    case automatic
    /// SDL renderer with YUV streaming textures (the GPU converts; SDL's software renderer otherwise).
    case texture
    /// libswscale converts and scales straight into the window's surface (CPU only).
    case surface
}
