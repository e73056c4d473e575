import Foundation

/// Clips with sound, made by the ffmpeg tool at test time.
enum AudioTestMedia {
    /// testsrc2 for `video` seconds at 30 fps and a 440 Hz sine for `audio` seconds, 48 kHz mono.
    /// 1.9 s holds a whole number of cycles (836), so a gapless loop is one unbroken sine.
    /// `bFrames: false` makes the video start at 0 (no negative first timestamp): the sound's
    /// priming packet then comes before the video's first.
    static func sine(video: Double = 1.9, audio: Double = 1.9, codec: String = "aac", container: String = "mp4",
                     frequency: Int = 440, bFrames: Bool = true) throws -> String {
        // WebM takes VP9 (fast settings: the picture only times the loop), Ogg Theora.
        let picture = switch container {
        case "webm": ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "30"]
        case "ogg": ["-c:v", "libtheora", "-g", "30"]
        default: TestMedia.h264 + (bFrames ? [] : ["-bf", "0"])
        }
        return try TestMedia.clip("sine-\(video)-\(audio)-\(codec)-\(frequency)\(bFrames ? "" : "-nobf").\(container)", [
            "-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=\(video)",
            "-f", "lavfi", "-i", "sine=f=\(frequency):r=48000:d=\(audio)",
        ] + picture + ["-pix_fmt", "yuv420p", "-c:a", codec, "-b:a", "128k"])
    }

    /// 0.5 s passes: a white flash on the first frame and a 30 ms 1 kHz beep at the same instant,
    /// in 7.1 (every channel).
    static func flashAndBeep() throws -> String {
        try TestMedia.clip("flash-beep.mp4", [
            "-f", "lavfi", "-i", "color=c=black:s=160x90:r=30:d=0.5,drawbox=c=white:t=fill:enable='lt(t,0.03)'",
            "-f", "lavfi", "-i", "aevalsrc=exprs='0.5*sin(2*PI*1000*t)*lt(t,0.03)':c=7.1:s=48000:d=0.5",
        ] + TestMedia.h264 + ["-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "256k"])
    }

    /// Two Opus tracks in WebM, 1.9 s: 440 Hz, then 1 kHz (whole cycles a pass, like `sine`).
    static func twoOpusTracks() throws -> String {
        try twoTracks("two-opus.webm", seconds: 1.9, codecs: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                                                             "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "libopus", "-b:a", "128k"])
    }

    /// Two audio tracks: English at 440 Hz, German at 1 kHz.
    static func twoLanguages() throws -> String {
        try twoTracks("two-languages.mkv", seconds: 2, codecs: TestMedia.h264 + [
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=ger"])
    }

    /// testsrc2 and two sine tracks (440 Hz, then 1 kHz) of `seconds`, encoded with `codecs`.
    private static func twoTracks(_ name: String, seconds: Double, codecs: [String]) throws -> String {
        try TestMedia.clip(name, [
            "-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=\(seconds)",
            "-f", "lavfi", "-i", "sine=f=440:r=48000:d=\(seconds)",
            "-f", "lavfi", "-i", "sine=f=1000:r=48000:d=\(seconds)",
            "-map", "0", "-map", "1", "-map", "2",
        ] + codecs)
    }
}

/// Signal measurements on played samples.
enum Signal {
    /// Frequency from the zero crossings of `samples` (a steady tone).
    static func frequency(_ samples: ArraySlice<Float>, rate: Int = 48_000) -> Double {
        var crossings = 0
        var previous = samples.first ?? 0
        for sample in samples.dropFirst() {
            if (previous < 0) != (sample < 0) { crossings += 1 }
            previous = sample
        }
        return Double(crossings) / 2 / (Double(samples.count) / Double(rate))
    }

    static func peak(_ samples: ArraySlice<Float>) -> Float { samples.reduce(0) { max($0, abs($1)) } }

    /// Root mean square: a level a short transient (a loop's wrap) barely moves.
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// The longest run of exact silence (|x| < 1e-6) inside `samples`.
    static func longestSilence(_ samples: ArraySlice<Float>) -> Int {
        var longest = 0
        var run = 0
        for sample in samples {
            run = abs(sample) < 1e-6 ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// Largest residual of the sine recurrence x[n] = 2cos(ω)x[n−1] − x[n−2] around `index`: a gap,
    /// an overlap or a phase jump there shows up as a spike.
    static func discontinuity(_ samples: [Float], around index: Int, frequency: Double, rate: Int = 48_000) -> Float {
        let c = Float(2 * cos(2 * Double.pi * frequency / Double(rate)))
        var largest: Float = 0
        for n in max(2, index - 64)..<min(samples.count, index + 64) {
            largest = max(largest, abs(samples[n] - c * samples[n - 1] + samples[n - 2]))
        }
        return largest
    }

    /// Indices where sound starts after at least `quiet` samples below `threshold`.
    static func onsets(_ samples: [Float], threshold: Float = 0.05, quiet: Int = 4800) -> [Int] {
        var onsets: [Int] = []
        var silent = quiet
        for (index, sample) in samples.enumerated() {
            if abs(sample) >= threshold {
                if silent >= quiet { onsets.append(index) }
                silent = 0
            } else {
                silent += 1
            }
        }
        return onsets
    }
}
