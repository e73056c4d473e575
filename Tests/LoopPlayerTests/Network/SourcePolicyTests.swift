import Foundation
@testable import LoopPlayer
import XCTest

/// The source policy as tables: what each kind of source may lead to, the app's allow list, and
/// the tricks (redirects to file://, FFmpeg protocol prefixes, `../`, case, IPv6, userinfo).
final class SourcePolicyTests: XCTestCase {
    private let policy = SourcePolicy()

    /// What a remote playlist (or a redirect from a remote server) may lead to.
    func testRemoteReferrals() {
        let cases: [(String, String?)] = [
            ("http://cdn.example.com/v/seg1.ts", nil),
            ("https://cdn.example.com/v/seg1.ts?sig=1", nil),
            ("HTTPS://CDN.EXAMPLE.COM/seg.ts", nil),
            ("http://[::1]:8080/seg.ts", nil),
            ("http://127.0.0.1:8080/seg.ts", nil),
            ("file:///etc/passwd", "a remote source may only lead to http(s) resources"),
            ("FILE:///etc/passwd", "a remote source may only lead to http(s) resources"),
            ("file://localhost/etc/passwd", "a remote source may only lead to http(s) resources"),
            ("concat:/etc/passwd%7C/etc/hosts", "a remote source may only lead to http(s) resources"),
            ("subfile:/etc/passwd", "a remote source may only lead to http(s) resources"),
            ("data:text/plain,hello", "a remote source may only lead to http(s) resources"),
            ("pipe:0", "a remote source may only lead to http(s) resources"),
            ("tcp://127.0.0.1:22", "a remote source may only lead to http(s) resources"),
            ("udp://239.0.0.1:1234", "a remote source may only lead to http(s) resources"),
            ("rtmp://live.example.com/app", "a remote source may only lead to http(s) resources"),
            ("crypto:http://x.example/a.ts", "a remote source may only lead to http(s) resources"),
            ("hls+http://x.example/a.m3u8", "a remote source may only lead to http(s) resources"),
            ("http:///nohost.ts", "the URL has no host"),
            ("http://ev%69l.com/x.ts", "the host 'ev%69l.com' is not a plain host name or address"),
        ]
        for (target, reason) in cases {
            guard let url = URL(string: target) else { XCTFail("test URL \(target)"); continue }
            assertDecision(policy.check(url, from: .remote), target: url.absoluteString, reason: reason, kind: .remote)
        }
    }

    /// A relative URI in a remote playlist resolves to the same server: `../` cannot leave it.
    func testRelativeReferralsStayOnTheServer() throws {
        let base = try XCTUnwrap(URL(string: "http://cdn.example.com/a/b/index.m3u8"))
        for uri in ["../../../../etc/passwd", "/etc/passwd", "%2e%2e/%2e%2e/etc/passwd"] {
            let resolved = try XCTUnwrap(HLSPlaylist.resolve(uri, against: base))
            XCTAssertEqual(resolved.host, "cdn.example.com", uri)
            XCTAssertTrue(policy.check(resolved, from: .remote).isAllowed, uri)
        }
        XCTAssertNil(HLSPlaylist.resolve("subfile,,start,0,end,100,,:file:///etc/passwd", against: base),
                     "an FFmpeg protocol prefix is not a URL reference")
    }

    /// What a local playlist the user chose may lead to: files in its folder, and http(s).
    func testLocalPlaylistReferrals() throws {
        let folder = "/media/show"
        let referrer = SourceKind.localPlaylist(folder: folder)
        let base = URL(fileURLWithPath: "/media/show/index.m3u8")
        let cases: [(String, String?, SourceKind?)] = [
            ("seg1.ts", nil, .localMedia),
            ("sub/seg1.ts", nil, .localMedia),
            ("sub/../seg1.ts", nil, .localMedia),
            ("v2/index.m3u8", nil, .localPlaylist(folder: folder)),
            ("../secret.ts", "a local playlist may only lead to files inside its folder /media/show", nil),
            ("sub/../../../etc/passwd", "a local playlist may only lead to files inside its folder /media/show", nil),
            ("%2e%2e/secret.ts", "a local playlist may only lead to files inside its folder /media/show", nil),
            ("/etc/passwd", "a local playlist may only lead to files inside its folder /media/show", nil),
            ("file:///media/show-other/x.ts", "a local playlist may only lead to files inside its folder /media/show", nil),
            ("file://evil.example/media/show/x.ts", "not a local file URL", nil),
            ("https://cdn.example.com/seg.ts", nil, .remote),
            ("concat:seg1.ts%7Cseg2.ts", "a local playlist may only lead to files in its folder and http(s) resources", nil),
            ("pipe:0", "a local playlist may only lead to files in its folder and http(s) resources", nil),
        ]
        for (uri, reason, kind) in cases {
            let resolved = try XCTUnwrap(HLSPlaylist.resolve(uri, against: base), uri)
            assertDecision(policy.check(resolved, from: referrer), target: resolved.absoluteString, reason: reason, kind: kind)
        }
        // The decision hands back the normalised path, the one to open.
        let resolved = try XCTUnwrap(HLSPlaylist.resolve("sub/./x/../seg1.ts", against: base))
        XCTAssertEqual(policy.check(resolved, from: referrer), .allow(URL(fileURLWithPath: "/media/show/sub/seg1.ts"), .localMedia))
    }

    func testLocalMediaLeadsNowhere() throws {
        for target in ["file:///media/other.mp4", "http://example.com/x.mp4"] {
            let url = try XCTUnwrap(URL(string: target))
            assertDecision(policy.check(url, from: .localMedia), target: target,
                           reason: "a local media source may not open other resources", kind: nil)
        }
    }

    /// The user's own source.
    func testUserSources() {
        let cases: [(String, String?, SourceKind?)] = [
            ("/media/clip.mp4", nil, .localMedia),
            ("/media/My Videos/clip.mp4", nil, .localMedia),
            ("/media/\u{1}clip.mp4", "the path holds control characters", nil),
            ("/media/show/index.m3u8", nil, .localPlaylist(folder: "/media/show")),
            ("/media/show/../show/INDEX.M3U8", nil, .localPlaylist(folder: "/media/show")),
            ("file:///media/clip.mp4", nil, .localMedia),
            ("https://cdn.example.com/master.m3u8", nil, .remote),
            ("HTTP://cdn.example.com/master.m3u8", nil, .remote),
            ("concat:/a.mp4|/b.mp4", "the scheme concat is not allowed", nil),
            ("subfile,,start,0,end,100,,:/etc/passwd", "the scheme subfile is not allowed", nil),
            ("rtmp://live.example.com/app", "the scheme rtmp is not allowed", nil),
            ("clip.mp4", "not an absolute path or URL", nil),
            ("http://example.com/a b.mp4", "the URL holds spaces or control characters", nil),
            ("http://example.com/\u{0}.mp4", "the URL holds spaces or control characters", nil),
        ]
        for (source, reason, kind) in cases {
            assertDecision(policy.check(source: source), target: source, reason: reason, kind: kind)
        }
    }

    /// `AllowedSources`: schemes and hosts, wildcards, IPv6, userinfo.
    func testAllowList() throws {
        let allowed = AllowedSources(schemes: ["HTTPS"], hosts: ["*.example.com", "media.example.org", "[::1]", "10.0.0.1"])
        let strict = SourcePolicy(allowed: allowed)
        let cases: [(String, String?)] = [
            ("https://cdn.example.com/master.m3u8", nil),
            ("https://a.b.example.com/master.m3u8", nil),
            ("https://CDN.Example.COM./master.m3u8", nil),
            ("https://media.example.org/x.m3u8", nil),
            ("https://[::1]:8443/x.m3u8", nil),
            ("https://10.0.0.1/x.m3u8", nil),
            ("https://example.com/master.m3u8", "the host example.com is not in the allowed hosts"),
            ("https://evilexample.com/master.m3u8", "the host evilexample.com is not in the allowed hosts"),
            ("https://example.com.evil.net/x.m3u8", "the host example.com.evil.net is not in the allowed hosts"),
            ("https://cdn.example.com@evil.net/x.m3u8", "the host evil.net is not in the allowed hosts"),
            ("https://media.example.org:443@evil.net/x.m3u8", "the host evil.net is not in the allowed hosts"),
            ("https://[::2]/x.m3u8", "the host ::2 is not in the allowed hosts"),
            ("http://cdn.example.com/master.m3u8", "the scheme http is not allowed"),
            ("/media/clip.mp4", "local files are not allowed"),
        ]
        for (source, reason) in cases {
            assertDecision(strict.check(source: source), target: source, reason: reason, kind: reason == nil ? .remote : nil)
        }
        // The same list applies to what a playlist leads to.
        let segment = try XCTUnwrap(URL(string: "https://other.net/seg.ts"))
        assertDecision(strict.check(segment, from: .remote), target: segment.absoluteString,
                       reason: "the host other.net is not in the allowed hosts", kind: nil)
        XCTAssertTrue(AllowedSources(hosts: ["*"]).allows(host: "anything.net"))
        XCTAssertFalse(AllowedSources(hosts: ["*.0.0.1"]).allows(host: "127.0.0.1"), "no wildcard for IP addresses")
        XCTAssertTrue(AllowedSources.standard.allows(host: "whatever.example"))
    }

    /// The host judged is the host FFmpeg connects to.
    func testAuthorityIsSplitLikeFFmpeg() {
        let cases: [(String, String?, String?, Int?)] = [
            ("http://good.com@evil.com/", "http", "evil.com", nil),
            ("http://user:pw@host.example:8080/a", "http", "host.example", 8080),
            ("http://a.example?@evil.com/", "http", "a.example", nil),
            ("http://a.example#@evil.com/", "http", "a.example", nil),
            ("http://[2001:db8::1]:81/x", "http", "2001:db8::1", 81),
            ("HTTP://HOST.EXAMPLE./", "http", "host.example", nil),
            ("subfile,,start,0,end,1,,:/etc/passwd", "subfile", nil, nil),
            ("/plain/path.mp4", nil, nil, nil),
        ]
        for (text, scheme, host, port) in cases {
            let parts = URLAuthority(text)
            XCTAssertEqual(parts.scheme, scheme, text)
            XCTAssertEqual(parts.host, host, text)
            XCTAssertEqual(parts.port, port, text)
        }
    }

    func testProtocolWhitelists() {
        XCTAssertEqual(SourcePolicy.protocolWhitelist(for: .remote), "http,https,tls,tcp")
        XCTAssertEqual(SourcePolicy.protocolWhitelist(for: .localMedia), "file")
        XCTAssertEqual(SourcePolicy.protocolWhitelist(for: .localPlaylist(folder: "/m")), "file,http,https,tls,tcp")
        XCTAssertFalse(SourcePolicy.protocolWhitelist(for: .remote).split(separator: ",").contains("file"))
    }

    func testRefusalMessage() throws {
        let url = try XCTUnwrap(URL(string: "file:///etc/passwd"))
        guard case let .refuse(refusal) = policy.check(url, from: .remote) else { return XCTFail("allowed") }
        XCTAssertEqual(refusal.description, "refused file:///etc/passwd: a remote source may only lead to http(s) resources")
    }

    private func assertDecision(_ decision: SourceDecision, target: String, reason: String?, kind: SourceKind?,
                                file: StaticString = #filePath, line: UInt = #line) {
        switch (decision, reason) {
        case let (.allow(_, actual), nil):
            if let kind { XCTAssertEqual(actual, kind, target, file: file, line: line) }
        case let (.refuse(refusal), expected?):
            XCTAssertEqual(refusal.reason, expected, target, file: file, line: line)
            XCTAssertEqual(refusal.target, target, file: file, line: line)
        case let (.allow(url, _), expected?):
            XCTFail("\(target) allowed as \(url), expected refusal: \(expected)", file: file, line: line)
        case let (.refuse(refusal), nil):
            XCTFail("\(target) refused: \(refusal.reason)", file: file, line: line)
        }
    }
}
