import Foundation
@testable import LoopPlayer
import XCTest

/// The source policy in playback: what a remote playlist names (`file:`, absolute paths, `../`,
/// `concat:`, `subfile:`, a redirect to `file://`), what a local playlist names, and the app's
/// `AllowedSources`. Each case ends in a typed error saying what was refused and why; a local file
/// the test makes is watched with inotify and never opened, and the server's log shows what was
/// asked of it.
final class SourcePolicyPlaybackTests: XCTestCase {
    private var fixture: NetworkFixture!
    private var secret: URL!
    private var watch: FileAccessWatch!

    override func setUpWithError() throws {
        fixture = try NetworkFixture()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("policy-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A real segment: were it opened, it would play.
        secret = folder.appendingPathComponent("secret.ts")
        try FileManager.default.copyItem(at: try HLSFixtures.set(.mpegts).appendingPathComponent("v240/seg000.ts"), to: secret)
        watch = try XCTUnwrap(FileAccessWatch(path: secret.path), "inotify")
    }

    override func tearDown() {
        watch = nil
        if let secret { try? FileManager.default.removeItem(at: secret.deletingLastPathComponent()) }
        fixture = nil
    }

    /// A media playlist naming `uri` once (then a real segment).
    private func playlist(naming uri: String) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1.0,\n\(uri)\n#EXTINF:1.0,\n/hls/v240/seg001.ts\n#EXT-X-ENDLIST\n"
    }

    private func play(_ source: String, _ configure: (inout EngineConfiguration) -> Void = { _ in }) -> NetworkProbe {
        let probe = NetworkProbe(configure, untimed: true)
        probe.run(source, timeout: 10) { $0.failure != nil || $0.frames.count >= 30 }
        return probe
    }

    func testRemotePlaylistCannotLeadToLocalFilesOrOtherProtocols() throws {
        let cases: [(name: String, uri: String, kind: String, says: String)] = [
            ("file", secret.absoluteString, "sourceNotAllowed", "a remote source may only lead to http(s) resources"),
            ("concat", "concat:\(secret.path)|\(secret.path)", "sourceNotAllowed", "a remote source may only lead to http(s) resources"),
            ("subfile", "subfile,,start,0,end,1000,,:\(secret.path)", "invalidPlaylist", "is not a valid URL"),
            ("crypto", "crypto:file://\(secret.path)", "sourceNotAllowed", "a remote source may only lead to http(s) resources"),
        ]
        for item in cases {
            try fixture.write(playlist(naming: item.uri), to: "policy/\(item.name).m3u8")
            let probe = play(fixture.url("/policy/\(item.name).m3u8"))
            let error = try XCTUnwrap(probe.failure, item.name)
            XCTAssertEqual(error.kind, item.kind, "\(item.name): \(error)")
            XCTAssertTrue(error.description.contains(item.says), "\(item.name): \(error)")
            XCTAssertFalse(error.description.contains("Invalid data"), "\(item.name): \(error)")
            XCTAssertEqual(probe.frames.count, 0, "refused before anything played")
        }
        // Only the playlists were asked for: a refusal comes before any segment is fetched.
        XCTAssertEqual(Set(try fixture.server.requestLog().map(\.path)),
                       Set(cases.map { "/policy/\($0.name).m3u8" }))
        XCTAssertEqual(watch.accesses(), 0, "the local file was never opened")
    }

    /// An absolute path or `../` in a remote playlist is a path on the same server, never a local file.
    func testPathsInARemotePlaylistStayOnTheServer() throws {
        for (name, uri) in [("absolute", secret.path), ("climbing", "../../../../../..\(secret.path)")] {
            try fixture.write(playlist(naming: uri), to: "policy/\(name).m3u8")
            let probe = play(fixture.url("/policy/\(name).m3u8"))
            XCTAssertEqual(probe.failure, .networkError(url: fixture.url(secret.path), reason: "HTTP 404 Not Found"), name)
        }
        XCTAssertTrue(try fixture.server.requestLog().contains { $0.path == secret.path && $0.status == 404 })
        XCTAssertEqual(watch.accesses(), 0)
    }

    /// FFmpeg's http does not follow a redirect to `file://`, for a segment, a playlist or a
    /// progressive source: a typed error at once.
    func testRedirectsToLocalFilesAreNotFollowed() throws {
        try fixture.server.setFaults([FaultRule(pattern: "redirected", redirect: secret.absoluteString)])
        for source in ["/hls/v240/redirected.ts", "/policy/redirected.m3u8", "/redirected.mp4"] {
            if source.hasSuffix(".ts") { try fixture.write(playlist(naming: source), to: "policy/segment.m3u8") }
            let probe = play(fixture.url(source.hasSuffix(".ts") ? "/policy/segment.m3u8" : source))
            let error = try XCTUnwrap(probe.failure, source)
            XCTAssertEqual(error.kind, "sourceNotAllowed", "\(source): \(error)")
            XCTAssertTrue(error.description.contains(fixture.url(source)), "\(source): \(error)")
            XCTAssertTrue(error.description.contains("redirects to a resource that is not http(s)"), "\(source): \(error)")
        }
        XCTAssertEqual(watch.accesses(), 0)
    }

    /// A local playlist the user chose plays the files of its folder (through the player's client,
    /// not FFmpeg's hls demuxer) and nothing outside it.
    func testLocalPlaylistStaysInItsFolder() throws {
        let folder = secret.deletingLastPathComponent().appendingPathComponent("show")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let segments = try HLSFixtures.set(.mpegts).appendingPathComponent("v240")
        for index in 0..<4 {
            try FileManager.default.copyItem(at: segments.appendingPathComponent(String(format: "seg%03d.ts", index)),
                                             to: folder.appendingPathComponent(String(format: "seg%03d.ts", index)))
        }
        try FileManager.default.copyItem(at: segments.appendingPathComponent("index.m3u8"), to: folder.appendingPathComponent("index.m3u8"))
        let record = try playUntimed(folder.appendingPathComponent("index.m3u8").path, looping: true,
                                     stop: StopCondition(loops: 2, exitAtEnd: true))
        XCTAssertEqual(record.statistics.framesPresented, 240)
        XCTAssertEqual(record.statistics.loopsCompleted, 2)

        try playlist(naming: "../secret.ts").write(to: folder.appendingPathComponent("climb.m3u8"), atomically: true, encoding: .utf8)
        let probe = play(folder.appendingPathComponent("climb.m3u8").path)
        let error = try XCTUnwrap(probe.failure)
        XCTAssertEqual(error.kind, "sourceNotAllowed", "\(error)")
        XCTAssertTrue(error.description.contains("refused \(secret.absoluteString)"), "\(error)")
        XCTAssertTrue(error.description.contains("inside its folder"), "\(error)")
        XCTAssertEqual(watch.accesses(), 0)

        // Symbolic links inside the folder that point out of it: a file, and a folder.
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.ts"), withDestinationURL: secret)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("outside"),
                                                   withDestinationURL: secret.deletingLastPathComponent())
        for (name, uri) in [("file-link", "link.ts"), ("folder-link", "outside/secret.ts")] {
            try playlist(naming: uri).write(to: folder.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
            let probe = play(folder.appendingPathComponent("\(name).m3u8").path)
            let error = try XCTUnwrap(probe.failure, name)
            XCTAssertEqual(error.kind, "sourceNotAllowed", "\(name): \(error)")
            XCTAssertTrue(error.description.contains("inside its folder"), "\(name): \(error)")
        }
        XCTAssertEqual(watch.accesses(), 0, "the linked file was never opened")
        // A link that stays inside the folder plays.
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("inside.ts"),
                                                   withDestinationURL: folder.appendingPathComponent("seg000.ts"))
        try playlist(naming: "inside.ts").replacingOccurrences(of: "/hls/v240/seg001.ts", with: "seg001.ts")
            .write(to: folder.appendingPathComponent("inside.m3u8"), atomically: true, encoding: .utf8)
        XCTAssertNil(play(folder.appendingPathComponent("inside.m3u8").path).failure)
    }

    /// `AllowedSources`: a source outside the app's list is refused before anything is asked of
    /// the network; `https` only refuses http; a host list refuses the others.
    func testAllowedSources() throws {
        let source = fixture.url("/hls/master-low-first.m3u8")
        let cases: [(AllowedSources, String)] = [
            (AllowedSources(schemes: ["https"]), "the scheme http is not allowed"),
            (AllowedSources(hosts: ["media.example.com", "*.example.org"]), "the host 127.0.0.1 is not in the allowed hosts"),
        ]
        for (allowed, reason) in cases {
            let probe = play(source) { $0.network.allowedSources = allowed }
            XCTAssertEqual(probe.failure, .sourceNotAllowed(SourceRefusal(target: source, reason: reason)))
        }
        let local = play(secret.path) { $0.network.allowedSources = AllowedSources(schemes: ["http", "https"]) }
        XCTAssertEqual(local.failure?.kind, "sourceNotAllowed")
        XCTAssertEqual(try fixture.server.requestLog().count, 0, "nothing was asked of the server")
        XCTAssertEqual(watch.accesses(), 0)
        // The same through the settings: the engine throws the refusal, and the player reports it.
        let engine = try PlaybackEngine(configuration: {
            var configuration = EngineConfiguration(output: .offscreen)
            configuration.network.allowedSources = AllowedSources(hosts: ["example.com"])
            return configuration
        }())
        XCTAssertThrowsError(try engine.load(source)) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, "sourceNotAllowed")
        }
        let allowed = play(source) { $0.network.allowedSources = AllowedSources(schemes: ["http"], hosts: ["127.0.0.1"]) }
        XCTAssertNil(allowed.failure)
        XCTAssertEqual(allowed.frames.count, 30)
    }
}
