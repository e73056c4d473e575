/// The ranges of the player's properties, in the player's own units: the one place they are written.
/// `PlayerProperty`'s table (LoopPlayer) states them for every surface (keys, commands, the IPC, the
/// config); the layers below it that clamp a value (the colour adjustment, the sound's gain, the
/// frame scheduler) read them here, where they can see them.
package enum PropertyLimits {
    /// Linear gain: no amplification.
    package static let volume: ClosedRange<Float> = 0...1
    /// Playback rate; 0 holds the picture and silences the sound.
    package static let speed: ClosedRange<Double> = 0...16
    /// The slowest rate frames are scheduled at: a held picture (speed 0) is not divided by.
    package static let slowestScheduledSpeed = 0.01
    /// −1 (black) … 1 (white); 0 leaves the picture alone.
    package static let brightness: ClosedRange<Float> = -1...1
    /// 0 (flat grey) … 4; 1 leaves the picture alone.
    package static let contrast: ClosedRange<Float> = 0...4
    /// Clockwise quarter turns of the picture on screen, in degrees (mpv's `video-rotate`).
    package static let videoRotations = [0, 90, 180, 270]
    /// Loop counts: mpv's largest finite `loop-file` / `loop-playlist`.
    package static let loopCount = 0...10_000
}
