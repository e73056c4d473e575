import Foundation

/// A source as the source policy admitted it, and how the demux thread reads it.
///
/// - `.file`: a local media file, opened by FFmpeg with the `file` protocol only.
/// - `.progressive`: an http(s) URL that is not a playlist (mp4 over http): FFmpeg's http with the
///   remote whitelist, a stall limit and a reopen at the lost position when the connection goes.
/// - `.hls`: a remote `.m3u8`/`.m3u` (or a remote resource that turns out to be one) and every
///   local playlist: our own client (`HLSSession`), never FFmpeg's hls demuxer (which would open
///   whatever a playlist names).
struct SourcePlan: Sendable {
    enum Reading: Sendable, Equatable { case file, progressive, hls }

    var location: MediaLocation
    /// The URL the policy judged (a local path made absolute and normalised).
    var url: URL
    var kind: SourceKind
    var network: NetworkOptions
    var controls: NetworkControls
    /// Open the source as if it had no picture (its sound under a black one): its picture stream
    /// proved undecodable while its sound plays (local files only).
    var ignoresPicture = false
    /// A local file as it was when admitted: a file replaced since (copied over, renamed onto) is
    /// played again from its new content.
    var fileIdentity: FileIdentity?
    /// The largest picture decoded (`EngineConfiguration.pictureSizeLimit`).
    var sizeLimit = VideoSizeLimit.standard

    /// The local file was replaced since it was admitted (its identity changed or it is gone).
    var fileWasReplaced: Bool {
        guard let fileIdentity else { return false }
        return FileIdentity.of(url.path) != fileIdentity
    }

    var reading: Reading {
        switch kind {
        case .localPlaylist: .hls
        case .localMedia: .file
        case .remote: SourcePolicy.isPlaylist(url.path) ? .hls : .progressive
        case .other: .progressive
        }
    }

    /// `location` judged by the policy of `network`: the plan, or `sourceNotAllowed` saying what
    /// was refused and why.
    static func admit(_ location: MediaLocation, network: NetworkOptions,
                      controls: NetworkControls) -> Result<SourcePlan, PlayerError> {
        let subject: String
        switch location {
        case let .file(path):
            subject = path.hasPrefix("/") ? path
                : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        case let .url(url):
            subject = url
        }
        switch network.policy.check(source: subject) {
        case let .allow(url, kind):
            var plan = SourcePlan(location: location, url: url, kind: kind, network: network, controls: controls)
            if kind == .localMedia { plan.fileIdentity = FileIdentity.of(url.path) }
            return .success(plan)
        case let .refuse(refusal):
            return .failure(.sourceNotAllowed(refusal))
        }
    }
}
