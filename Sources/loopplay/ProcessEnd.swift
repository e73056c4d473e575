import Foundation
import LoopPlayer

/// The end of a process whose sound device could not close (SDL's disk driver blocked writing into
/// a FIFO whose reader stopped reading): `exit` would flush every stdio stream, SDL's file too, and
/// wait on the same blocked write for ever. loopplay writes with `write(2)`, nothing of its own is
/// buffered: the process ends at once.
enum ProcessEnd {
    static func ifSoundIsStuck(exitCode: Int32) {
        guard SDLAudio.hasStuckClose else { return }
        _exit(exitCode)
    }
}
