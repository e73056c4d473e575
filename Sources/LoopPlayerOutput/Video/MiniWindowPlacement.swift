/// Where the picture-in-picture window goes and how big it is (the `PictureInPicture` setting).
package struct MiniWindowPlacement: Sendable, Equatable {
    /// The range of the mini window's width and height, in pixels.
    package static let validSide = 32...4096

    package var width: Int
    /// Nil: follows the player area's shape.
    package var height: Int?
    /// The top-left corner on the screen; nil: 16 px in from the bottom-right corner of the usable
    /// area of the main window's display.
    package var x: Int?
    package var y: Int?
    /// The main window hides while the mini window shows (a mini player).
    package var hidesMainWindow: Bool

    package init(width: Int, height: Int?, x: Int?, y: Int?, hidesMainWindow: Bool) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.hidesMainWindow = hidesMainWindow
    }
}
