import LoopPlayerMedia
import XCTest

/// `DriftResampler` on a real libswresample context: a 480 Hz tone resampled 0.1 % faster.
final class DriftResamplerTests: XCTestCase {
    func testSoundPlaysFasterWithoutABreakAndKeepsItsTimes() throws {
        let rate = 48_000, channels = 2, block = 960
        let resampler = try XCTUnwrap(DriftResampler(channels: channels, rate: rate))
        let speed = 1.001
        let step = 1.0 / Double(rate)
        var input = [Float](repeating: 0, count: block * channels)
        var output: [Float] = []
        var times: [(start: Double, frames: Int, step: Double)] = []
        let blocks = 500  // 10 s
        for index in 0..<blocks {
            for frame in 0..<block {
                let n = Double(index * block + frame)
                let value = Float(0.5 * sin(2 * Double.pi * 480 * n / Double(rate)))
                input[frame * channels] = value
                input[frame * channels + 1] = value
            }
            guard let out = input.withUnsafeBufferPointer({
                resampler.resample($0.baseAddress!, frames: block, mediaTime: Double(index * block) * step, step: step, speed: speed)
            }) else { continue }
            XCTAssertEqual(out.secondsPerSample, step * speed, accuracy: 1e-15)
            times.append((out.mediaTime, out.frames, out.secondsPerSample))
            for frame in 0..<out.frames { output.append(out.samples[frame * channels]) }
        }
        // 0.1 % fewer samples (less the filter's delay, under a block).
        XCTAssertEqual(Double(output.count), Double(blocks * block) / speed, accuracy: Double(block))
        // Each block's time follows on from the one before, within a sample.
        for (before, after) in zip(times, times.dropFirst()) {
            XCTAssertEqual(before.start + Double(before.frames) * before.step, after.start, accuracy: step)
        }
        // The times are the sound's: the tone's phase at each block's start is where its time says.
        for (index, time) in times.enumerated().dropFirst(10) where index % 50 == 0 {
            let first = times.prefix(index).reduce(0) { $0 + $1.frames }
            let expected = Float(0.5 * sin(2 * Double.pi * 480 * time.start))
            XCTAssertEqual(output[first], expected, accuracy: 0.02, "block \(index)")
        }
        // One unbroken tone: the sine recurrence leaves no spike (a dropped or repeated sample
        // leaves about 0.06 × amplitude).
        let w = 2 * Double.pi * 480 * speed / Double(rate)
        let body = output.dropFirst(block).map(Double.init)
        var worst = 0.0
        for n in 2..<body.count {
            let i = body.startIndex + n
            worst = max(worst, abs(body[i] - 2 * cos(w) * body[i - 1] + body[i - 2]) / 0.5)
        }
        XCTAssertLessThan(worst, 0.005)
    }
}
