/// Picture-in-picture: a mini window showing the same scenes as the player's window. Engine thread only.
extension PlaybackEngine {

    /// Opens the mini window where `configuration.pictureInPicture` says and emits `startedPiP`
    /// (nothing if it is open already). Without that setting, or without a window, it throws
    /// `notSupportedPiP` and emits it as an error event.
    package func startPictureInPicture() throws(PlayerError) {
        guard !output.showsPictureInPicture else { return }
        do throws(PlayerError) {
            guard let placement = configuration.pictureInPicture else {
                throw PlayerError.notSupportedPiP(reason: "the PictureInPicture() setting is not given")
            }
            try output.openPictureInPicture(placement.placement)
        } catch {
            note(error)
            throw error
        }
        emit(.startedPiP)
        redraw()  // the mini window shows the scene at once, even over a paused picture
    }

    /// Closes the mini window and emits `stoppedPiP` (nothing if none is open).
    package func stopPictureInPicture() {
        guard output.closePictureInPicture() else { return }
        emit(.stoppedPiP)
    }

    /// Enables picture-in-picture where `placement` says (used by the next `startPictureInPicture`),
    /// or disables it (nil), closing the mini window.
    package func setPictureInPicture(_ placement: PictureInPicture?) {
        configuration.pictureInPicture = placement
        if placement == nil { stopPictureInPicture() }
    }
}
