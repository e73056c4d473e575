import CFFmpeg

extension FFmpegError {
    /// The error for an FFmpeg return code, with `av_strerror`'s text.
    init(code: Int32, context: String? = nil) {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
