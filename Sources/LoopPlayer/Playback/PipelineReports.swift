/// What an item's pipeline threads reported, handed to whom it concerns: warnings and underruns are
/// said, a replaced file and a filter that fell back go to their owners, a looping that stopped to
/// the item. What only the engine can do (end the item, open it again) is returned to it.
/// Engine thread only.
struct PipelineReports {
    /// What the engine must do about the reports taken.
    enum Outcome {
        /// The item failed.
        case fail(PlayerError)
        /// Its picture cannot be decoded: open it again without it, the last frame held meanwhile.
        case reopenWithoutPicture
    }

    let outbox: EngineOutbox
    let replacedFile: FileReplacementWatch
    let filterControl: FilterControl

    /// Takes `item`'s reports. The first failure is returned once the rest are said (a later one is
    /// an error event of its own); a picture that cannot be decoded ends the taking (the item is
    /// opened again, and its reports with it) unless the item failed already: a failure is not hidden
    /// by a reopening.
    func take(from item: PlaybackItem, now: Double, soundUnderruns: Int) -> Outcome? {
        let pipeline = item.pipeline
        var failure: PlayerError?
        for report in pipeline.status.takeReports() {
            switch report {
            case let .fatal(error):
                // A file copied over while it played fails on its old content: play the new one.
                if pipeline.sourceWasReplaced {
                    replacedFile.noteReplaced(item.location, pipelineFailed: true, now: now)
                } else if failure == nil {
                    failure = error
                } else {
                    outbox.note(error)
                }
            case .sourceReplaced:
                replacedFile.noteReplaced(item.location, now: now)
            case let .pictureUndecodable(error):
                outbox.note(error)
                if failure == nil { return .reopenWithoutPicture }
            case let .warning(error):
                outbox.note(error)
            case let .loopingStopped(error):
                item.stopLooping(error)
            case let .filterFailed(error, instead):
                // The decode thread went back to the last stack that worked: that is what runs now.
                filterControl.fellBack(to: instead)
                outbox.note(.invalidFilter(error))
            case .underrun:
                outbox.emit(.waitingToPlayAtSpecifiedRate)
            }
        }
        if item.presenter != nil, let unmatched = item.subtitles.takeUnmatchedStartChoice() { outbox.note(unmatched) }
        if let underrun = item.announcements.underruns(soundUnderruns) { outbox.emit(underrun) }
        return failure.map(Outcome.fail)
    }
}
