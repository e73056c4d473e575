import CFFmpeg
import Foundation
import Synchronization

/// The sound controls of a pipeline, for the engine's thread.
extension MediaPipeline {
    var audioOutput: AudioOutput? { audioOutputState.withLock { $0 } }
    var audioTracks: [AudioTrack] { audioTrackState.withLock { $0.all } }
    var currentAudioTrack: AudioTrack? { audioTrackState.withLock { $0.current } }

    func setAudio(_ change: (inout AudioControls) -> Void) {
        audioControls.withLock { controls in
            change(&controls)
            audioOutput?.apply(controls)
        }
    }

    /// Audio problems since the last call.
    func takeAudioFailures() -> [PlayerError] {
        audioFailures.withLock { failures in defer { failures.removeAll() }; return failures }
    }

    /// A track asked for by language or number that the source does not have: said once; the
    /// automatic track plays instead.
    func reportUnmatchedTrackChoice(in input: MediaInput) {
        let tracks = input.audioTracks
        let missing: String
        switch audioOptions.track {
        case let .language(code) where !tracks.contains(where: { $0.matches(language: code) }): missing = code
        case let .number(number) where !tracks.contains(where: { $0.number == number }): missing = "#\(number)"
        default: return
        }
        audioFailures.withLock { $0.append(.audioTrackNotFound(language: missing, available: tracks.map(\.label))) }
    }

    /// Opens the device and the decoder for the input's selected track and starts the audio thread.
    /// Failures leave the video playing without sound (reported once). Demux thread.
    func startAudio(for input: MediaInput) {
        audioTrackState.withLock { $0 = (input.audioTracks, input.audioTrack) }
        guard let track = input.audioTrack, let stream = input.audioStream else { return }
        do {
            guard let driver = try audioDriver?.get() else {
                input.select(audio: nil)
                audioTrackState.withLock { $0.current = nil }
                return
            }
            let decoder = try StreamDecoder(stream: stream, sourceName: location.description)
            let generation = controlCondition.withLock { control.generation }
            let existing = audioOutput
            let output = try existing ?? AudioOutput(rate: track.sampleRate, channels: track.channels,
                                                        options: audioOptions, driver: driver, generation: generation)
            let started = threads.withLock { state -> Bool in
                guard !state.closed, !abort.isRaised else { return false }
                if existing == nil {
                    // Published under the seek lock and brought to its generation: a seek made
                    // while the device was opening has found no device to flush.
                    controlCondition.withLock {
                        audioOutputState.withLock { $0 = output }
                        output.flush(generation: control.generation)
                    }
                }
                // Applied under the controls' lock: a change made meanwhile reaches it either way.
                audioControls.withLock { output.apply($0) }
                if state.list.contains(where: { $0.name == "lp-adecode" }) {
                    audioDecoderHandoff.withLock { $0 = decoder }
                } else {
                    state.list.append(WorkerThread(name: "lp-adecode") { [self] in
                        runAudioDecoder(decoder, output: output)
                    })
                    audioThreadRunning.store(true, ordering: .relaxed)
                }
                return true
            }
            if !started && existing == nil { output.close() }
        } catch {
            input.select(audio: nil)
            audioTrackState.withLock { $0.current = nil }
            let failure = error as? PlayerError ?? .audioUnavailable(reason: "\(error)")
            audioFailures.withLock { $0.append(failure) }
            frameReady()
        }
    }
}

extension AudioOutput {
    func apply(_ controls: MediaPipeline.AudioControls) {
        setVolume(controls.volume, muted: controls.muted)
        setPaused(controls.paused || controls.speed == 0)
    }
}
