import LoopPlayer


/// What `GET /snapshot.png?width=N&content=C` asks for: the format from the path (`.png`;
/// `.jpg`/`.jpeg`), a width in `SnapshotRequest.widths` (the height in proportion), and what is in
/// the picture (mpv's screenshot flags: `window`, the default — overlays, subtitles and messages
/// as the window shows them —, `subtitles` without the messages, `video` the bare picture). Other
/// parameters are ignored.
struct SnapshotQuery: Equatable {
    var width: Int?
    var content = SnapshotContent.window

    static func format(ofPath path: String) -> SnapshotFormat? {
        switch path {
        case "/snapshot.png": .png
        case "/snapshot.jpg", "/snapshot.jpeg": .jpeg
        default: nil
        }
    }

    /// The query string's parameters, or the one line saying what is wrong with them.
    static func parse(_ query: String) -> Result<SnapshotQuery, QueryProblem> {
        var parsed = SnapshotQuery()
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]), value = parts.count > 1 ? String(parts[1]) : ""
            switch name {
            case "width":
                guard value.count <= 5, value.allSatisfy(\.isASCII), let width = Int(value),
                      SnapshotRequest.widths.contains(width) else {
                    return .failure(QueryProblem("width must be a number of pixels from \(SnapshotRequest.widths.lowerBound) "
                                                 + "to \(SnapshotRequest.widths.upperBound)"))
                }
                parsed.width = width
            case "content":
                guard let content = SnapshotContent(rawValue: value) else {
                    return .failure(QueryProblem("content must be one of "
                                                 + SnapshotContent.allCases.map(\.rawValue).joined(separator: ", ")))
                }
                parsed.content = content
            default:
                continue  // another's (a cache buster's `_=`): as web servers do, not refused
            }
        }
        return .success(parsed)
    }
}

/// Why a query was refused (the 400 answer's text).
struct QueryProblem: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
