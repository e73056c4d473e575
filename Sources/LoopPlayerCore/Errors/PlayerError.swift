/// Why the player could not do what was asked. Every failure reaches the user as one of these.
///
/// ```swift
/// let player = ExtVideoPlayer { VideoSettings { SourceName("swipe") } }
/// if case let .failed(error) = player.runHeadless(until: StopCondition(exitAtEnd: true)) {
///     print(error)   // "swipe.mp4: source not found (looked in …)"
/// }
/// ```
public enum PlayerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file or resource matched the source. `searched` lists where we looked.
    case sourceNotFound(source: String, searched: [String])
    /// The source is a directory (or another kind of file that is not media and not named by
    /// `specialFile`).
    case notAFile(source: String)
    /// The source is a named pipe, a socket or a device: refused, because opening a pipe without a
    /// writer blocks and none of them can be read again for the next pass.
    case specialFile(source: String, type: SpecialFileType)
    /// The source is there (or may be) but cannot be reached: a loop of symbolic links, a directory
    /// on its path that cannot be searched, a file that cannot be read, a name that is not UTF-8.
    case sourceInaccessible(source: String, reason: String)
    /// The file exists but holds no bytes.
    case emptyFile(source: String)
    /// FFmpeg could not open or parse the container (truncated, not media, unsupported).
    case unreadableMedia(source: String, cause: FFmpegError)
    /// The media has neither a video stream nor an audio stream (audio-only media play under a
    /// black picture).
    case noVideoStream(source: String)
    /// No decoder is available for the stream's codec, or it failed to open. `codec` is FFmpeg's
    /// codec name, or the container's codec tag when FFmpeg does not know the codec.
    case decoderUnavailable(source: String, codec: String, cause: FFmpegError?)
    /// The video's picture size is beyond what the player handles (see `VideoSizeLimit`).
    case unsupportedVideoSize(source: String, width: Int, height: Int)
    /// A setting or option has a value outside its valid range.
    case invalidSetting(name: String, value: String, reason: String)
    /// No display could be opened for a window.
    case displayUnavailable(reason: String)
    /// The renderer or the snapshot writer failed.
    case renderFailed(reason: String)
    /// A file the player was asked to write (a snapshot) could not be written: `reason` says why
    /// (`No such file or directory`, `it is a FIFO (named pipe), not a regular file`).
    case writeFailed(path: String, reason: String)
    /// A filter (typed or raw) could not be applied; the previous stack stays in use.
    case invalidFilter(FilterError)
    /// The crop (loopplay's `--crop`, a crop first in the filter stack; `crop` in the decoded
    /// picture's pixels) is not inside the `picture` (a smaller file took the source's place, or
    /// the crop was meant for another picture). It is refused, never clipped, moved or stretched:
    /// the picture is black, with this text, and the source plays on; the next picture it fits is
    /// cropped again.
    case cropOutsidePicture(source: String, crop: Rect, picture: PixelSize)
    /// No audio device could be opened (or the audio track cannot be decoded); the video plays on
    /// without sound, on the monotonic clock.
    case audioUnavailable(reason: String)
    /// The media opened, but a whole pass (or a long stretch) of its pictures decoded to nothing:
    /// corrupt or unsupported data. Playback stops with this error instead of looping over nothing.
    case noDecodableFrames(source: String, detail: String)
    /// Looping had to stop (the input cannot go back to its start, or a pass after a rewind held
    /// nothing); the media plays to its end like non-looping media.
    case loopingStopped(source: String, reason: String)
    /// A vector layer or SVG could not be drawn (missing or invalid SVG, NaN coordinates); the rest of
    /// the overlays and the video play on.
    case invalidOverlay(OverlayError)
    /// A subtitle file could not be used (missing, unreadable, not subtitles, too large); the video
    /// plays on.
    case invalidSubtitles(SubtitleError)
    /// No subtitle track has the requested language; `available` lists the tracks there are. The
    /// current choice stays.
    case subtitleTrackNotFound(language: String, available: [String])
    /// No audio track has the requested language; `available` lists the tracks there are. The
    /// current track keeps playing.
    case audioTrackNotFound(language: String, available: [String])
    /// A network source failed for good: an HTTP error such as 404 or 403 (at once), or a server
    /// that stayed unreachable, stalled or answered 5xx for longer than `NetworkTimeout`.
    /// `url` is the resource that failed (the playlist, a segment or the media).
    case networkError(url: String, reason: String)
    /// The source policy (`AllowedSources`, and what a remote or local source may lead to) refused
    /// the source or something it names; nothing was opened.
    case sourceNotAllowed(SourceRefusal)
    /// An HLS playlist cannot be used (malformed, too large, self-referencing, encrypted…).
    case invalidPlaylist(HLSError)
    /// `Loop()` does not apply to a live stream: it plays live (an event, not a failure).
    case liveStreamNotLooped(source: String)
    /// `startPiP` cannot be done: the `PictureInPicture()` setting is absent, the player has no
    /// window (headless, frames-only, embedded), or the window system refused the mini window.
    case notSupportedPiP(reason: String)

    /// A short stable name for statistics and scripts, e.g. `sourceNotFound`.
    public var kind: String {
        switch self {
        case .sourceNotFound: "sourceNotFound"
        case .notAFile: "notAFile"
        case .specialFile: "specialFile"
        case .sourceInaccessible: "sourceInaccessible"
        case .emptyFile: "emptyFile"
        case .unreadableMedia: "unreadableMedia"
        case .noVideoStream: "noVideoStream"
        case .decoderUnavailable: "decoderUnavailable"
        case .unsupportedVideoSize: "unsupportedVideoSize"
        case .invalidSetting: "invalidSetting"
        case .displayUnavailable: "displayUnavailable"
        case .renderFailed: "renderFailed"
        case .writeFailed: "writeFailed"
        case .invalidFilter: "invalidFilter"
        case .cropOutsidePicture: "cropOutsidePicture"
        case .audioUnavailable: "audioUnavailable"
        case .audioTrackNotFound: "audioTrackNotFound"
        case .noDecodableFrames: "noDecodableFrames"
        case .invalidOverlay: "invalidOverlay"
        case .invalidSubtitles: "invalidSubtitles"
        case .subtitleTrackNotFound: "subtitleTrackNotFound"
        case .loopingStopped: "loopingStopped"
        case .networkError: "networkError"
        case .sourceNotAllowed: "sourceNotAllowed"
        case .invalidPlaylist: "invalidPlaylist"
        case .liveStreamNotLooped: "liveStreamNotLooped"
        case .notSupportedPiP: "notSupportedPiP"
        }
    }

    /// True for errors about the media (as opposed to usage or the machine).
    package var isMediaError: Bool {
        switch self {
        case .sourceNotFound, .notAFile, .specialFile, .sourceInaccessible, .emptyFile, .unreadableMedia, .noVideoStream,
             .decoderUnavailable, .unsupportedVideoSize, .noDecodableFrames, .loopingStopped, .networkError,
             .sourceNotAllowed, .invalidPlaylist, .cropOutsidePicture: true
        case .invalidSetting, .displayUnavailable, .renderFailed, .writeFailed, .invalidFilter, .audioUnavailable,
             .audioTrackNotFound, .invalidOverlay, .invalidSubtitles, .subtitleTrackNotFound, .liveStreamNotLooped,
             .notSupportedPiP: false
        }
    }

    /// One line naming the source and the cause. Control characters (of a file name, a URL, an
    /// FFmpeg message) are escaped here, once, so that neither loopplay nor an application that
    /// logs or shows the error can be given a second line or terminal escape sequences by a name.
    public var description: String { PrintableText.escaping(text) }

    private var text: String {
        switch self {
        case let .sourceNotFound(source, searched):
            "\(source): source not found" + (searched.isEmpty ? "" : " (looked in \(searched.joined(separator: ", ")))")
                + (source.contains("\u{FFFD}") ? "; the name has U+FFFD in place of bytes that were not valid UTF-8"
                    + " (LoopPlayer opens UTF-8 names only)" : "")
        case let .notAFile(source): "\(source): not a media file (it is a directory)"
        case let .specialFile(source, type): "\(source): not a media file: it is \(type)"
        case let .sourceInaccessible(source, reason): "\(source): cannot open the source: \(reason)"
        case let .emptyFile(source): "\(source): the file is empty"
        case let .unreadableMedia(source, cause): "\(source): cannot read the media: \(cause.message)"
        case let .noVideoStream(source): "\(source): the media has no video or audio stream to play"
        case let .decoderUnavailable(source, codec, cause):
            "\(source): no usable decoder for \(codec)" + (cause.map { ": \($0.message)" } ?? "")
        case let .unsupportedVideoSize(source, width, height):
            "\(source): the video size \(width)x\(height) is over the picture size limit (PictureSizeLimit)"
        case let .invalidSetting(name, value, reason): "invalid \(name) '\(value)': \(reason)"
        case let .displayUnavailable(reason): "no display: \(reason)"
        case let .renderFailed(reason): "rendering failed: \(reason)"
        case let .writeFailed(path, reason): "cannot write \(path): \(reason)"
        case let .invalidFilter(error): "invalid \(error.description)"
        case let .cropOutsidePicture(source, crop, picture):
            "\(source): the crop \(Self.pixels(crop.width))x\(Self.pixels(crop.height))+\(Self.pixels(crop.x))+\(Self.pixels(crop.y)) is outside the"
                + " \(picture) picture: refused, black until a picture it fits plays"
        case let .audioUnavailable(reason): "no sound: \(reason); playing the video without it"
        case let .audioTrackNotFound(language, available):
            "no audio track matches '\(language)'" + (available.isEmpty ? " (the media has no audio)"
                : " (tracks: \(available.joined(separator: ", ")))") + "; the current track plays on"
        case let .noDecodableFrames(source, detail): "\(source): no picture could be decoded (\(detail))"
        case let .loopingStopped(source, reason): "\(source): looping stops: \(reason)"
        case let .invalidOverlay(error): "overlay not drawn: \(error.description)"
        case let .invalidSubtitles(error): "no subtitles: \(error.description)"
        case let .subtitleTrackNotFound(language, available):
            "no subtitle track matches '\(language)'" + (available.isEmpty ? " (the media has no subtitles)"
                : " (tracks: \(available.joined(separator: ", ")))") + "; the current choice stays"
        case let .networkError(url, reason): "\(url): \(reason)"
        case let .sourceNotAllowed(refusal): refusal.description
        case let .invalidPlaylist(error): error.description
        case let .liveStreamNotLooped(source): "\(source): a live stream plays live; looping does not apply"
        case let .notSupportedPiP(reason): "picture-in-picture is not available: \(reason)"
        }
    }
}

extension PlayerError {
    /// A count of pixels as a whole number where it is one (`400`, not `400.0`).
    fileprivate static func pixels(_ value: Double) -> String {
        value.isFinite && value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// What a source that is not a regular file is, for `PlayerError.specialFile`.
public enum SpecialFileType: String, Sendable, Equatable, CustomStringConvertible {
    /// In order: a named pipe (FIFO), a Unix socket, a character device, a block device.
    case namedPipe, socket, characterDevice, blockDevice

    /// What the file is, for error messages (a named pipe also says why it cannot loop).
    public var description: String {
        switch self {
        case .namedPipe: "a named pipe (FIFO): reading one waits for a writer and cannot start again for the next pass"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        }
    }
}

/// An FFmpeg error code with its text, kept as the cause of a `PlayerError`.
public struct FFmpegError: Error, Sendable, Equatable, CustomStringConvertible {
    /// FFmpeg's (negative) error code, e.g. `AVERROR_INVALIDDATA`.
    public let code: Int32
    /// FFmpeg's text for `code`, or the player's more precise reason where it has one.
    public let message: String

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The text followed by the code, e.g. `Invalid data found when processing input (-1094995529)`.
    public var description: String { "\(message) (\(code))" }
}
