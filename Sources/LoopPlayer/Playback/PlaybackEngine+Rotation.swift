/// The screen's turn of the picture (mpv's `video-rotate`): 0, 90, 180 or 270 degrees clockwise, on
/// top of the stream's own rotation. The scene composer holds it; the output turns the picture as it
/// draws it (the renderer's rotation, no CPU pass), and the overlays are laid out upright around the
/// turned picture. Engine thread only.
extension PlaybackEngine {
    /// The screen's clockwise turn of the picture, in degrees.
    package var videoRotation: Int { scene.videoRotation }

    /// Turns the picture `degrees` clockwise from now on, shown at once (a paused or failed player
    /// draws its scene again). Anything but 0, 90, 180 or 270 throws `invalidSetting` (also an error
    /// event) and the turn stays.
    package func setVideoRotation(_ degrees: Int) throws(PlayerError) {
        do {
            try VideoRotation.validate(degrees)
        } catch {
            note(error)
            throw error
        }
        guard degrees != scene.videoRotation else { return }
        scene.videoRotation = degrees
        output.screenTurned(to: degrees)  // an area that follows the picture turns before the layout
        redraw()
    }
}
