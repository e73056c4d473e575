import ArgumentParser
import LoopPlayer

/// loopplay's exit codes (also in the README). Usage errors are swift-argument-parser's 64.
enum ExitCodes {
    /// The source could not be found, opened or decoded.
    static let mediaError = ExitCode(65)
    /// Everything else that failed at run time (display, renderer, snapshot file).
    static let runtimeError = ExitCode(70)
    static let usageError = ExitCode.validationFailure

    static func code(for error: PlayerError) -> ExitCode {
        switch error {
        case .invalidSetting: usageError
        case _ where error.isMediaError: mediaError
        default: runtimeError
        }
    }
}
