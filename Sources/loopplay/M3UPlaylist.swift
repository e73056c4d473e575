import Foundation

/// An .m3u playlist file: one source per line (a path, a URL or a bare name); blank lines and
/// lines starting with `#` (comments, `#EXTM3U`, `#EXTINF`) are skipped. A relative path is taken
/// from the file's folder, as mpv does.
enum M3UPlaylist {
    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    static func entries(ofFile path: String) throws(ReadError) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "cannot read the playlist \(path)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw ReadError(description: "the playlist \(path) is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // a byte order mark
        let folder = (path as NSString).deletingLastPathComponent
        return entries(of: text, relativeTo: folder)
    }

    static func entries(of text: String, relativeTo folder: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { entry in
                let isURL = entry.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil
                guard !isURL, !entry.hasPrefix("/"), !folder.isEmpty,
                      FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(entry)) else {
                    return entry  // a URL, an absolute path, or a bare name for the resolver
                }
                return (folder as NSString).appendingPathComponent(entry)
            }
    }
}
