import CFFmpeg
import FFmpegSupport
import Filters
import LoopPlayerCore

extension FFmpegError {
    /// The error for an FFmpeg return code, with `av_strerror`'s text.
    package init(code: Int32, context: String? = nil) {
        let text = ffmpegErrorText(code)
        self.init(code: code, message: context.map { "\($0): \(text)" } ?? text)
    }

    package static let endOfFile = shim_averror_eof()
    package static let tryAgain = shim_averror_eagain()
    package static let invalidData = shim_averror_invaliddata()
}

/// FFmpeg's "no timestamp" value.
package let noTimestamp: Int64 = shim_nopts_value

extension AVRational {
    package var seconds: Double { den == 0 ? 0 : Double(num) / Double(den) }
}
