/// What the audio device was opened with (`--stats-json` `audioDevice`).
public struct AudioDeviceFormat: Sendable, Equatable, Codable {
    /// Samples per second per channel.
    public var rate: Int
    /// Channels the device was opened with (fewer than the source's when downmixed).
    public var channels: Int
    /// Sample format: `f32` (32-bit float; SDL converts to the hardware's own format if needed).
    public var format: String
    /// SDL's audio driver: `pulseaudio`, `alsa`, `pipewire`, `disk`, `dummy`, …
    public var driver: String
    /// Frames per device callback.
    public var bufferFrames: Int

    package init(rate: Int, channels: Int, format: String = "f32", driver: String, bufferFrames: Int) {
        self.rate = rate
        self.channels = channels
        self.format = format
        self.driver = driver
        self.bufferFrames = bufferFrames
    }

    /// Seconds of one callback buffer.
    package var bufferDuration: Double { Double(bufferFrames) / Double(rate) }
}
