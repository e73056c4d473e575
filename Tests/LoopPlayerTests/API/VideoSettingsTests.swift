import LoopPlayer
import XCTest

final class VideoSettingsTests: XCTestCase {
    func testAnyOrderAndDefaults() {
        let settings = VideoSettings {
            Loop()
            Gravity(.resizeAspectFill)
            SourceName("swipe")
        }
        XCTAssertEqual(settings.sourceName, "swipe")
        XCTAssertEqual(settings.ext, "mp4")
        XCTAssertEqual(settings.gravity, .resizeAspectFill)
        XCTAssertTrue(settings.loop)
        XCTAssertTrue(settings.mute, "muted unless Unmute() or Volume(…), as the model")
        XCTAssertNil(settings.volume)
        XCTAssertNil(settings.timePublishing)
        XCTAssertEqual(settings.events, .none, "no Events setting: no events (the model's rule)")
        XCTAssertEqual(settings.errorColor, .red)
        XCTAssertEqual(settings.errorFontSize, 17)
    }

    func testControlFlowOptionalsAndNesting() {
        for kiosk in [false, true] {
            for gravity in VideoGravity.allCases {
                let maybeUnmute: Unmute? = kiosk ? nil : Unmute()
                let absent: NotAutoPlay? = nil
                let settings = VideoSettings {
                    SourceName("a")
                    if kiosk { Loop() } else { NotAutoPlay() }
                    maybeUnmute
                    absent
                    switch gravity {
                    case .resize: Gravity(.resize)
                    case .resizeAspect: Gravity(.resizeAspect)
                    case .resizeAspectFill: Gravity(.resizeAspectFill)
                    }
                    for name in ["b", "c"] { SourceName(name) }
                    ErrorGroup {
                        EColor(.white)
                        ErrorGroup { EFontSize(24) }
                    }
                    if #available(macOS 99, *) { PictureInPicture() }
                }
                XCTAssertEqual(settings.loop, kiosk)
                XCTAssertEqual(settings.notAutoPlay, !kiosk)
                XCTAssertEqual(settings.mute, kiosk)
                XCTAssertEqual(settings.gravity, gravity)
                XCTAssertEqual(settings.sourceName, "c", "the last setting wins")
                XCTAssertEqual(settings.errorColor, .white)
                XCTAssertEqual(settings.errorFontSize, 24)
            }
        }
    }

    func testLastOneWins() {
        let settings = VideoSettings {
            TimePublishing(0.5)
            Gravity(.resize)
            TimePublishing()
            Gravity(.resizeAspectFill)
            Events([.playing])
            Events()
        }
        XCTAssertEqual(settings.timePublishing, 1)
        XCTAssertEqual(settings.gravity, .resizeAspectFill)
        XCTAssertEqual(settings.events, .all)
    }

    func testMemberwiseBuildsTheSameValue() {
        let dsl = VideoSettings { SourceName("swipe"); Loop(); TimePublishing(); Events([.errorAny]) }
        let plain = VideoSettings(sourceName: "swipe", timePublishing: 1, loop: true, events: .only([.errorAny]))
        XCTAssertEqual(dsl, plain)
    }

    func testValidationGivesTypedErrors() {
        func kind(_ settings: VideoSettings) -> String? {
            do { try settings.validate(); return nil } catch { return "\(error.kind):\(error.description)" }
        }
        XCTAssertNil(kind(VideoSettings { SourceName("ok") }))
        XCTAssertTrue(kind(VideoSettings { Loop() })?.contains("SourceName") == true)
        XCTAssertTrue(kind(VideoSettings { SourceName("ok"); TimePublishing(-1) })?.hasPrefix("invalidSetting:invalid TimePublishing") == true)
        XCTAssertTrue(kind(VideoSettings { SourceName("ok"); EFontSize(0) })?.contains("EFontSize") == true)
        XCTAssertTrue(kind(VideoSettings { SourceName("ok"); Ext("a/b") })?.contains("Ext") == true)
        XCTAssertThrowsError(try Gravity(parsing: "diagonal")) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, "invalidSetting")
        }
        XCTAssertEqual(try Gravity(parsing: "resizeAspectFill").value, .resizeAspectFill)
    }

    /// `Setting` is the library's: a type of the user's own cannot say what it changes, so it is
    /// refused by name instead of being dropped without a word (also inside an `ErrorGroup`, and a
    /// setting inside a `Playlist { … }`).
    func testASettingOfOnesOwnIsRefusedByName() {
        struct Kiosk: Setting {}
        for settings in [VideoSettings { SourceName("swipe"); Kiosk() },
                         VideoSettings { SourceName("swipe"); ErrorGroup { Kiosk() } }] {
            XCTAssertThrowsError(try settings.validate()) { error in
                guard case let .invalidSetting(name, value, reason) = error as? PlayerError else { return XCTFail("\(error)") }
                XCTAssertEqual(name, "Setting")
                XCTAssertEqual(value, "Kiosk")
                XCTAssertEqual(reason, "not one of LoopPlayer's settings")
            }
        }
        // A playlist's block holds sources; a setting put there by mistake is named, not dropped.
        XCTAssertThrowsError(try VideoSettings { Playlist { SourceName("a"); Loop() } }.validate()) { error in
            XCTAssertEqual(error as? PlayerError, .invalidSetting(name: "Playlist", value: "Loop",
                                                                  reason: "a Playlist { … } holds SourceName entries only"))
        }
        XCTAssertNoThrow(try VideoSettings { SourceName("swipe"); ErrorGroup { EColor(.blue) } }.validate())
    }

    func testColorsAreClampedAndParsed() throws {
        XCTAssertEqual(Color(red: 2, green: -1, blue: 0.5, alpha: .nan), Color(red: 1, green: 0, blue: 0.5, alpha: 0))
        XCTAssertEqual(try Color(parsing: "accentColor"), .accentColor)
        XCTAssertEqual(try Color(parsing: "#FF000080"), Color(rgb8: 255, 0, 0, alpha: 128.0 / 255))
        XCTAssertThrowsError(try Color(parsing: "#12"))
    }
}
