@testable import LoopPlayer
import XCTest

/// Volume, mute, speed, tracks, sync and devices, checked on what the device played.
final class AudioControlTests: XCTestCase {
    /// The flash frame (first of each 0.5 s pass) is shown while its beep is heard, within 20 ms,
    /// also after 20 wraps. "Heard" is what the `disk` device wrote: a watcher sees each buffer land
    /// in the file (8 channels make SDL's stdio writes land within 128 frames of the buffer's end),
    /// and a buffer is being heard from when it lands until the next one does.
    func testFlashAndBeepLineUpAcrossTwentyWraps() throws {
        let capture = try AudioCapture.play(try AudioTestMedia.flashAndBeep(), stop: StopCondition(loops: 21, exitAtEnd: true))
        let format = try XCTUnwrap(capture.format)
        XCTAssertEqual(format.channels, 8)
        // Half the beep's amplitude: AAC's pre-echo spreads a little sound before a sharp onset.
        let onsets = Signal.onsets(capture.samples, threshold: 0.25)
        XCTAssertGreaterThanOrEqual(onsets.count, 20, "beeps heard")
        let flashes = capture.shown.filter { abs($0.time.truncatingRemainder(dividingBy: 0.5)) < 0.001 && $0.time >= 1 }
        XCTAssertGreaterThanOrEqual(flashes.count, 19)
        var offsets: [Double] = []
        for flash in flashes {
            guard let write = capture.writes.last(where: { $0.at <= flash.at }) else { continue }
            let heard = Double(write.frames - format.bufferFrames) + (flash.at - write.at) * Double(format.rate)
            guard let onset = onsets.min(by: { abs(Double($0) - heard) < abs(Double($1) - heard) }) else { continue }
            offsets.append((heard - Double(onset)) / Double(format.rate) * 1000)
        }
        XCTAssertGreaterThanOrEqual(offsets.count, 19)
        print("flash − beep, ms:", offsets.map { ($0 * 10).rounded() / 10 })
        // Each offset is read on the real clock (a frame shown, a buffer landing in the file): a
        // loaded machine delays a reading now and then (27 ms once, beside two busy loops). A real
        // offset or a drift across the wraps moves them all.
        let sorted = offsets.map(abs).sorted()
        XCTAssertLessThan(sorted[sorted.count / 2], 20, "flash vs beep, median (ms): \(offsets)")
        XCTAssertLessThanOrEqual(sorted.filter { $0 >= 20 }.count, 2, "flash vs beep (ms): \(offsets)")
        XCTAssertLessThan(sorted.last ?? .infinity, 60, "flash vs beep (ms): \(offsets)")
        XCTAssertLessThan(capture.statistics.avOffsetMaxMs ?? .infinity, 20)
    }

    func testVolumeAndMuteScaleThePlayedSamples() throws {
        var volumeChangedAt: Int?
        var mutedAt: Int?
        let capture = try AudioCapture.play(try AudioTestMedia.sine(), stop: StopCondition(frames: 90)) { engine, frame in
            let written = Int(frame.time * 48_000)
            if frame.time >= 1, volumeChangedAt == nil { engine.soundControl.setVolume(0.25); volumeChangedAt = written }
            if frame.time >= 2, mutedAt == nil { engine.soundControl.setMuted(true); mutedAt = written }
        }
        let first = try XCTUnwrap(capture.samples.firstIndex(where: { abs($0) > 1e-6 }))
        guard capture.samples.count >= first + 120_000 else {
            return XCTFail("\(capture.samples.count - first) samples played after the first sound, 120 000 expected")
        }
        let full = Signal.peak(capture.samples[(first + 9600)..<(first + 38_400)])
        let quarter = Signal.peak(capture.samples[(first + 60_000)..<(first + 86_400)])
        XCTAssertEqual(quarter / full, 0.25, accuracy: 0.02, "volume 0.25")
        XCTAssertEqual(Signal.peak(capture.samples[(first + 110_000)...]), 0, "muted")
        XCTAssertTrue(capture.events.contains(.volumeChanged(0.25)))
        // The ramp: no step larger than a sine's own between two samples (no click).
        let around = capture.samples[(first + 40_000)..<(first + 60_000)]
        XCTAssertLessThan(zip(around, around.dropFirst()).map { abs($1 - $0) }.max() ?? 1, 0.03)
    }

    /// Muted, the picture keeps its own pace (it stops following the sound). The sound is then moved
    /// 100 ms away, as a long mute lets two clocks drift apart; unmuting moves the sound back to the
    /// picture instead of jumping the picture to the sound, in both directions and across a pause.
    func testUnmutingMovesTheSoundBackWhenItFellBehind() throws {
        try checkUnmuteRealigns(drift: -0.1, pausedAroundUnmute: false)
    }

    func testUnmutingMovesTheSoundBackWhenItRanAhead() throws {
        try checkUnmuteRealigns(drift: 0.1, pausedAroundUnmute: false)
    }

    func testUnmutingWhilePausedRealignsOnResume() throws {
        try checkUnmuteRealigns(drift: -0.1, pausedAroundUnmute: true)
    }

    private func checkUnmuteRealigns(drift: Double, pausedAroundUnmute: Bool, file: StaticString = #filePath,
                                     line: UInt = #line) throws {
        var mutedAt: (time: Double, samples: Int)?
        var unmutedAt: Double?
        var offsetSamplesWhileMuted: Int?
        var pace: [(time: Double, shownMinusMedia: Double)] = []
        var paused = 0.0  // how long the picture was paused
        let clock = MonotonicClock()
        let controller = TestController()
        let capture = try AudioCapture.play(try AudioTestMedia.sine(), stop: StopCondition(frames: 105),
                                            controller: controller) { engine, frame in
            pace.append((frame.time, clock.now - frame.time))
            if frame.time >= 1, mutedAt == nil {
                engine.soundControl.setMuted(true)
                mutedAt = (frame.time, engine.statistics.avOffsetSamples)
            }
            if frame.time >= 1.5, offsetSamplesWhileMuted == nil {
                offsetSamplesWhileMuted = engine.statistics.avOffsetSamples
                engine.sound.realign(by: drift)  // the clocks drifted apart
            }
            if frame.time >= 2, unmutedAt == nil {
                unmutedAt = frame.time
                if pausedAroundUnmute {
                    // Paused (the sound too, by the engine's loop), unmuted 150 ms later while
                    // nothing plays, and resumed 300 ms after the pause.
                    engine.setPaused(true)
                    let pausedAt = clock.now
                    controller.deadline = { [unowned engine] in engine.clock.now + 0.01 }
                    controller.tick = { [unowned engine] in
                        if engine.soundControl.isMuted, clock.now - pausedAt >= 0.15 { engine.soundControl.setMuted(false) }
                        guard engine.isPaused, clock.now - pausedAt >= 0.3 else { return }
                        engine.setPaused(false)
                        paused = clock.now - pausedAt
                        controller.tick = nil
                        controller.deadline = nil
                    }
                } else {
                    engine.soundControl.setMuted(false)
                }
            }
        }
        let muted = try XCTUnwrap(mutedAt, file: file, line: line)
        XCTAssertEqual(offsetSamplesWhileMuted, muted.samples, "muted: the picture does not follow the sound",
                       file: file, line: line)
        XCTAssertGreaterThan(capture.statistics.avOffsetSamples, muted.samples + 20, "unmuted: it follows again",
                             file: file, line: line)
        XCTAssertLessThan(capture.statistics.avOffsetMaxMs ?? .infinity, 20, "the sound was moved back in step",
                          file: file, line: line)
        // The picture's pace (shown time − media time) is the same before and after unmuting, but
        // for the pause: no jump.
        if pausedAroundUnmute { XCTAssertGreaterThanOrEqual(paused, 0.3, "resumed", file: file, line: line) }
        let unmuted = try XCTUnwrap(unmutedAt, file: file, line: line)
        let before = try XCTUnwrap(pace.last { $0.time < unmuted - 0.1 }, file: file, line: line).shownMinusMedia
        let after = try XCTUnwrap(pace.last, file: file, line: line).shownMinusMedia - paused
        XCTAssertEqual(after, before, accuracy: 0.008, "the picture jumped when the sound came back", file: file, line: line)
        XCTAssertEqual(capture.statistics.audioUnderruns, 0, file: file, line: line)
    }

    /// `#` (next track) restarts the sound alone, as mpv refreshes a track: the picture plays on,
    /// every frame once and in order (a seek held it while it decoded again from a keyframe and
    /// moved the position back), and the new track's sound is moved to it, in step.
    func testCyclingTheAudioTrackLeavesThePictureAlone() throws {
        var cycles: [Double] = []
        var shown: [Double] = []
        var positions: [Double] = []
        let capture = try AudioCapture.play(try AudioTestMedia.twoLanguages(), stop: StopCondition(frames: 108)) { engine, frame in
            shown.append(frame.time)
            positions.append(engine.position)
            // English → German, → none, then English again in pass 1.
            let due = [0.6, 1.3, 2.5]
            if cycles.count < due.count, frame.time >= due[cycles.count] {
                cycles.append(frame.time)
                engine.soundControl.cycleAudioTrack()
            }
        }
        XCTAssertEqual(cycles.count, 3)
        XCTAssertEqual(shown.count, 108)
        // Every frame once and in order: a step of more than one frame only for a frame dropped late
        // (which a loaded machine may do), counted as such.
        var skipped = 0
        for (earlier, later) in zip(shown, shown.dropFirst()) {
            let step = (later - earlier) * 30
            XCTAssertEqual(step, step.rounded(), accuracy: 0.03, "frame \(later) after \(earlier): not a frame's step")
            XCTAssertGreaterThanOrEqual(step.rounded(), 1, "frame \(later) after \(earlier): shown again")
            skipped += max(Int(step.rounded()) - 1, 0)
        }
        XCTAssertEqual(skipped, capture.statistics.framesDropped, "frames skipped that were not dropped late: \(shown)")
        for (earlier, later) in zip(positions, positions.dropFirst()) where later < earlier {
            XCTAssertGreaterThan(earlier, 1.95, "the position moved back from \(earlier) to \(later) (only a wrap may)")
            XCTAssertLessThan(later, 0.1, "the position moved back from \(earlier) to \(later) (only a wrap may)")
        }
        XCTAssertLessThan(capture.statistics.avOffsetMaxMs ?? .infinity, 20, "the new sound was moved to the picture")
        let first = try XCTUnwrap(capture.samples.firstIndex(where: { abs($0) > 1e-6 }))
        func at(_ time: Double) -> Int { first + Int(time * 48_000) }
        guard capture.samples.count >= at(3.3) else {
            return XCTFail("\(capture.samples.count - first) samples played after the first sound, \(at(3.3) - first) expected")
        }
        XCTAssertEqual(Signal.frequency(capture.samples[at(0.1)..<at(0.5)]), 440, accuracy: 5, "English first")
        XCTAssertEqual(Signal.frequency(capture.samples[at(0.8)..<at(1.25)]), 1000, accuracy: 10, "then German")
        XCTAssertEqual(Signal.peak(capture.samples[at(1.5)..<at(2.4)]), 0, "then none")
        XCTAssertEqual(Signal.frequency(capture.samples[at(2.8)..<at(3.3)]), 440, accuracy: 5, "then English again")
    }

    /// Twice as fast: the picture covers twice the media, the tone keeps its pitch.
    func testSpeedKeepsThePitch() throws {
        let capture = try AudioCapture.play(try AudioTestMedia.sine(), stop: StopCondition(frames: 120)) { engine, frame in
            if engine.speed == 1 { engine.setSpeed(2) }
        }
        let first = try XCTUnwrap(capture.samples.firstIndex(where: { abs($0) > 1e-6 }))
        guard capture.samples.count >= first + 72_000 else {
            return XCTFail("\(capture.samples.count - first) samples played after the first sound, 72 000 expected")
        }
        XCTAssertEqual(Signal.frequency(capture.samples[(first + 24_000)..<(first + 72_000)]), 440, accuracy: 5)
        XCTAssertEqual(capture.statistics.framesPresented, 120)
        // The picture covered about twice the media the device played (it follows the sound): 4 s
        // of 30 fps video in about 2 s of sound, not 4.
        let media = (capture.shown.last?.time ?? 0) - (capture.shown.first?.time ?? 0)
        let played = Double(capture.samples.count - first) / 48_000
        XCTAssertGreaterThan(media, 3.9, "120 frames of 30 fps video")
        XCTAssertLessThan(played, media * 0.75, "\(played) s of sound for \(media) s of media: not twice as fast")
    }

    /// Back from a very slow speed, the new speed is heard (and the picture, which follows the sound,
    /// moves) at once: the old tempo's buffer, stretched a hundredfold at 0.01, played first and held
    /// the player at a crawl for about 15 s. Judged from what was seen, however slow the machine: over
    /// the 20 frames shown after the return, the picture moves at about speed 1 (at a crawl, 0.01 s a
    /// second).
    func testAReturnFromAVerySlowSpeedTakesEffectAtOnce() throws {
        let clock = MonotonicClock()
        var engine: PlaybackEngine?
        var slowFrom: Double?
        var normalFrom: Double?
        var mediaAtReturn: Double?
        var lastShown: Double?
        var shownAfter: [(time: Double, at: Double)] = []
        let controller = TestController()
        controller.deadline = { normalFrom == nil ? slowFrom.map { $0 + 1 } : nil }  // wakes the loop to switch back
        controller.tick = {
            guard let engine, let from = slowFrom, normalFrom == nil, clock.now >= from + 1 else { return }
            engine.setSpeed(1)
            (normalFrom, mediaAtReturn) = (clock.now, lastShown)
        }
        // The duration is a failure bound (a run that shows nothing ends), not a measure.
        _ = try AudioCapture.play(try AudioTestMedia.sine(), stop: StopCondition(duration: 120), controller: controller,
                                  during: { engine, frame in
                                      if slowFrom == nil, frame.time >= 0.5 {
                                          engine.setSpeed(0.01)
                                          slowFrom = clock.now
                                      }
                                      if normalFrom != nil { shownAfter.append((frame.time, clock.now)) }
                                      if shownAfter.count == 20 { engine.requestQuit() }
                                      lastShown = frame.time
                                  }, prepare: { engine = $0 })
        let returned = try XCTUnwrap(normalFrom, "the speed never went back to 1")
        let before = try XCTUnwrap(mediaAtReturn, "a frame was shown before the return")
        XCTAssertEqual(shownAfter.count, 20, "frames shown after the return")
        let last = try XCTUnwrap(shownAfter.last)
        let moved = last.time - before, elapsed = last.at - returned
        XCTAssertGreaterThan(moved, 0.5 * elapsed, "the picture moved \(moved) s in \(elapsed) s after the return")
    }

    func testAudioTrackByTwoOrThreeLetterLanguageAndAClearErrorWhenNoneMatches() throws {
        var switched = false
        var failure: PlayerError?
        let capture = try AudioCapture.play(try AudioTestMedia.twoLanguages(), stop: StopCondition(frames: 90)) { engine, frame in
            if frame.time >= 1, !switched {
                switched = true
                XCTAssertEqual(engine.soundControl.audioTracks.map(\.language), ["eng", "ger"])
                do throws(PlayerError) {
                    try engine.soundControl.selectAudioTrack(language: "de")  // "ger" in the file
                } catch {
                    XCTFail("\(error)")
                }
                do throws(PlayerError) { try engine.soundControl.selectAudioTrack(language: "fr") } catch { failure = error }
            }
        }
        guard case let .audioTrackNotFound(language, available)? = failure else {
            return XCTFail("no audioTrackNotFound error: \(String(describing: failure))")
        }
        XCTAssertEqual(language, "fr")
        XCTAssertEqual(available.count, 2)
        XCTAssertTrue(capture.events.contains { if case .error(.audioTrackNotFound) = $0 { true } else { false } })
        let first = try XCTUnwrap(capture.samples.firstIndex(where: { abs($0) > 1e-6 }))
        guard capture.samples.count >= first + 120_000 else {
            return XCTFail("\(capture.samples.count - first) samples played after the first sound, 120 000 expected")
        }
        XCTAssertEqual(Signal.frequency(capture.samples[(first + 4800)..<(first + 38_400)]), 440, accuracy: 5, "English first")
        XCTAssertEqual(Signal.frequency(capture.samples[(first + 76_800)..<(first + 120_000)]), 1000, accuracy: 10,
                       "German after the switch, still after the failed one")
        XCTAssertEqual(capture.statistics.framesPresented, 90, "the picture played on")
    }

    func testMultichannelSoundIsDownmixedForAStereoDevice() throws {
        let capture = try AudioCapture.play(try AudioTestMedia.flashAndBeep(), stop: StopCondition(loops: 2, exitAtEnd: true),
                                            audio: AudioOptions(maxChannels: 2))
        XCTAssertEqual(capture.format?.channels, 2)
        XCTAssertGreaterThan(Signal.peak(capture.samples[...]), 0.2, "the beep, downmixed")
    }

    func testWithoutADeviceTheVideoPlaysOnAndSaysWhy() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: false, stop: StopCondition(exitAtEnd: true),
            audio: AudioOptions(driver: "no-such-driver")))
        let controller = TestController()
        try engine.load(try AudioTestMedia.sine())
        XCTAssertEqual(engine.run(controller: controller), .finished)
        let events = controller.playerEvents
        XCTAssertEqual(engine.statistics.framesPresented, 57)
        XCTAssertTrue(events.contains { if case .error(.audioUnavailable) = $0 { true } else { false } }, "\(events)")
        XCTAssertNil(engine.statistics.audioDevice)
    }
}
