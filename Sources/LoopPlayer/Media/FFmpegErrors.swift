import CFFmpeg
import FFmpegSupport
import Filters

extension FFmpegError {
    /// The error for an FFmpeg return code, with `av_strerror`'s text.
    init(code: Int32, context: String? = nil) {
        let text = ffmpegErrorText(code)
        self.init(code: code, message: context.map { "\($0): \(text)" } ?? text)
    }

    static let endOfFile = shim_averror_eof()
    static let tryAgain = shim_averror_eagain()
    static let invalidData = shim_averror_invaliddata()
}

/// FFmpeg's "no timestamp" value.
let noTimestamp: Int64 = shim_nopts_value

extension AVRational {
    var seconds: Double { den == 0 ? 0 : Double(num) / Double(den) }
}
