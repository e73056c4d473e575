import CFFmpeg
import LoopPlayerCore

/// What the player needs to know about the video stream, read once at open.
package struct VideoStreamInfo: Sendable, Equatable {
    package var codecName: String
    package var width: Int
    package var height: Int
    /// Sample (pixel) aspect ratio; 1 for square pixels.
    package var sampleAspectRatio: Double
    /// Clockwise rotation needed to show the picture upright: 0, 90, 180 or 270.
    package var rotation: Int
    /// Nominal frame interval in seconds (from the stream's frame rate).
    package var nominalFrameInterval: Double
    /// Duration announced by the container, in seconds (the loop measures the real one).
    package var announcedDuration: Double?
    /// The black picture shown for audio-only media (there is no video stream).
    package var isBlackPicture = false
    package var timeBase: AVRational
    package var colorSpace: AVColorSpace
    package var colorRange: AVColorRange

    package var geometry: VideoGeometry {
        VideoGeometry(width: width, height: height, sampleAspectRatio: sampleAspectRatio, rotation: rotation)
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.codecName == rhs.codecName && lhs.geometry == rhs.geometry
            && lhs.nominalFrameInterval == rhs.nominalFrameInterval && lhs.announcedDuration == rhs.announcedDuration
    }
}

extension VideoStreamInfo {
    package init(stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>) {
        let parameters = stream.pointee.codecpar.pointee
        codecName = String(cString: avcodec_get_name(parameters.codec_id))
        width = Int(parameters.width)
        height = Int(parameters.height)
        let sar = av_guess_sample_aspect_ratio(format, stream, nil)
        sampleAspectRatio = sar.num > 0 && sar.den > 0 ? sar.seconds : 1
        rotation = Self.rotation(of: stream)
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        nominalFrameInterval = rate.num > 0 && rate.den > 0 ? 1 / rate.seconds : 1.0 / 25
        timeBase = stream.pointee.time_base
        announcedDuration = Self.duration(of: stream, in: format)
        colorSpace = parameters.color_space
        colorRange = parameters.color_range
    }

    /// The picture shown for audio-only media: 640×360 black at 10 frames per second, on the audio
    /// stream's time base (its packets measure the loop).
    package init(blackPictureFor audio: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>) {
        codecName = "none"
        isBlackPicture = true
        width = 640
        height = 360
        sampleAspectRatio = 1
        rotation = 0
        nominalFrameInterval = 0.1
        timeBase = audio.pointee.time_base
        announcedDuration = Self.duration(of: audio, in: format)
        colorSpace = AVCOL_SPC_BT709
        colorRange = AVCOL_RANGE_MPEG
    }

    /// The stream's own length: from the stream, else from Matroska's per-track `DURATION` tag
    /// (`HH:MM:SS.nnnnnnnnn`, written by FFmpeg and mkvmerge), else the container's, which spans
    /// every stream (the sound's padding too) and is corrected once the first pass is measured.
    private static func duration(of stream: UnsafeMutablePointer<AVStream>, in format: UnsafeMutablePointer<AVFormatContext>) -> Double? {
        if stream.pointee.duration > 0 { return Double(stream.pointee.duration) * stream.pointee.time_base.seconds }
        if let tag = av_dict_get(stream.pointee.metadata, "DURATION", nil, 0)?.pointee.value,
           let seconds = Self.seconds(clock: String(cString: tag)) {
            return seconds
        }
        return format.pointee.duration > 0 ? Double(format.pointee.duration) / Double(AV_TIME_BASE) : nil
    }

    /// `HH:MM:SS.fraction` as seconds (nil unless well formed and positive).
    package static func seconds(clock text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Double(parts[2]),
              hours >= 0, (0..<60).contains(minutes), seconds >= 0, seconds < 60, seconds.isFinite else { return nil }
        let total = Double(hours) * 3600 + Double(minutes) * 60 + seconds
        return total > 0 ? total : nil
    }

    /// The display matrix's rotation, turned into the clockwise turn that shows the picture upright.
    private static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) else { return 0 }
        let counterClockwise = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard counterClockwise.isFinite else { return 0 }
        let clockwise = (-counterClockwise).truncatingRemainder(dividingBy: 360) + 360
        return (Int((clockwise / 90).rounded()) * 90) % 360
    }
}
