import Foundation

/// Subtitle controls. Engine thread only.
extension PlaybackEngine {
    /// The source's subtitle tracks and the loaded files' (empty until it opened).
    package var subtitleTracks: [SubtitleTrack] { item?.subtitles.tracks ?? [] }

    /// The track shown, if any.
    package var subtitleTrack: SubtitleTrack? { item?.subtitles.currentTrack }

    /// The shown track's place among `subtitleTracks` (nil: none), and how many there are.
    package var subtitleTrackPosition: (shown: Int?, count: Int) {
        let tracks = subtitleTracks
        return (subtitleTrack.flatMap { tracks.firstIndex(of: $0) }, tracks.count)
    }

    /// Chooses the subtitles (kept for later sources). A language or number that matches no track
    /// throws `subtitleTrackNotFound` (also sent as an error event) and the current choice stays.
    package func setSubtitles(_ choice: SubtitleChoice) throws(PlayerError) {
        if let item, let error = item.subtitles.select(choice) {
            note(error)
            throw error
        }
        configuration.subtitles.choice = choice
        redraw()
    }

    /// The next subtitle track; after the last one none, then the first again (mpv's `j`).
    package func cycleSubtitles() {
        guard let item else { return }
        item.subtitles.cycle()
        configuration.subtitles.choice = item.subtitles.choice
        redraw()
    }

    /// Shows or hides the subtitles without changing the choice (mpv's `v`).
    package func setSubtitlesVisible(_ visible: Bool) {
        configuration.subtitles.visible = visible
        item?.subtitles.visible = visible
        redraw()
    }
}
