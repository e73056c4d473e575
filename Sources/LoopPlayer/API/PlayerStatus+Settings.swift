extension PlayerStatus {
    /// What a player with these settings will do once it runs, said before the run: a library
    /// player starts muted, and its status says so from the start.
    init(before settings: VideoSettings) {
        self.init()
        source = settings.playlist.first ?? settings.sourceName
        playlistIndex = settings.playlist.isEmpty ? nil : 0
        playlistCount = settings.playlist.isEmpty ? (source == nil ? 0 : 1) : settings.playlist.count
        looping = settings.loop
        loopingPlaylist = settings.loopPlaylist
        paused = settings.notAutoPlay
        muted = settings.mute
        volume = settings.volume ?? volume
        brightness = settings.brightness
        contrast = settings.contrast
        followsSharedTimeline = settings.syncEpoch != nil
        videoRotation = settings.videoRotation
        playlistPasses = settings.loopPlaylistPasses
    }
}
