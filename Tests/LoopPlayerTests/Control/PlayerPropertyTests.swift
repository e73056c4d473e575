@testable import LoopPlayer
import XCTest

/// The property table's rules, pure: what a set accepts at each kind's edges, and what `add`,
/// `multiply` and `cycle` make of the value now.
final class PlayerPropertyTests: XCTestCase {
    private func property(_ name: String) throws -> PlayerProperty { try XCTUnwrap(PlayerProperty.named(name), name) }

    private var status: PlayerStatus {
        var status = PlayerStatus()
        status.state = .playing
        (status.volume, status.speed, status.audioTrackCount, status.subtitleTrackCount, status.audioTrack) = (0.5, 1, 2, 1, 0)
        (status.playlistCount, status.looping) = (1, true)
        return status
    }

    func testNamesAreUniqueAndEveryWritablePropertyHasAnOperation() {
        let names = PlayerProperty.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "one entry a name")
        XCTAssertGreaterThanOrEqual(PlayerProperty.all.filter(\.isWritable).count, 15)
        for property in PlayerProperty.all where property.configName != nil {
            XCTAssertTrue(property.isWritable, property.name)
            XCTAssertNotNil(property.defaultValue, "\(property.name): a line taken out goes back to it")
        }
    }

    func testASetIsCheckedAtTheEdgesOfItsKind() throws {
        let volume = try property("volume")
        XCTAssertEqual(volume.check(.number(0), in: status), .success(.number(0)))
        XCTAssertEqual(volume.check(.integer(1), in: status), .success(.number(1)), "a whole number is a number")
        XCTAssertEqual(volume.check(.number(1.0001), in: status), .failure(.range))
        XCTAssertEqual(volume.check(.number(-0.0001), in: status), .failure(.range))
        XCTAssertEqual(volume.check(.number(.nan), in: status), .failure(.format))
        XCTAssertEqual(volume.check(.flag(true), in: status), .failure(.format))
        let rotate = try property("video-rotate")
        for degrees in [0, 90, 180, 270] { XCTAssertEqual(rotate.check(.integer(degrees), in: status), .success(.integer(degrees))) }
        for degrees in [-90, 45, 360] { XCTAssertEqual(rotate.check(.integer(degrees), in: status), .failure(.range), "\(degrees)") }
        XCTAssertEqual(rotate.check(.number(90.5), in: status), .failure(.format))
        let loops = try property("loop-file")
        XCTAssertEqual(loops.check(.integer(0), in: status), .success(.off), "0 more passes: no loop")
        XCTAssertEqual(loops.check(.integer(10_000), in: status), .success(.integer(10_000)))
        XCTAssertEqual(loops.check(.integer(10_001), in: status), .failure(.range))
        XCTAssertEqual(loops.check(.integer(-1), in: status), .failure(.range))
        let aid = try property("aid")
        XCTAssertEqual(aid.check(.integer(1), in: status), .success(.integer(1)))
        XCTAssertEqual(aid.check(.integer(2), in: status), .failure(.range), "two tracks: 0 and 1")
        XCTAssertEqual(aid.check(.off, in: status), .success(.off))
        XCTAssertEqual(try property("playlist-pos").check(.integer(1), in: status), .failure(.range))
        XCTAssertEqual(try property("duration").check(.number(1), in: status), .failure(.readOnly))
    }

    func testRelativeChangesAreWorkedOutFromTheValueNow() throws {
        let volume = try property("volume")
        XCTAssertEqual(volume.resolve(.add(0.25), in: status), .success(.number(0.75)))
        XCTAssertEqual(volume.resolve(.add(2), in: status), .success(.number(1)), "kept in range")
        XCTAssertEqual(volume.resolve(.add(-2), in: status), .success(.number(0)))
        let speed = try property("speed")
        XCTAssertEqual(speed.resolve(.multiply(1.1), in: status), .success(.number(1.1)), "rounded to hundredths")
        XCTAssertEqual(speed.resolve(.multiply(1000), in: status), .success(.number(16)))
        let rotate = try property("video-rotate")
        var turned = status
        turned.videoRotation = 270
        XCTAssertEqual(rotate.resolve(.add(90), in: turned), .success(.integer(0)), "turns wrap")
        XCTAssertEqual(rotate.resolve(.add(-90), in: status), .success(.integer(270)))
        XCTAssertEqual(rotate.resolve(.add(45), in: status), .failure(.range))
        XCTAssertEqual(rotate.resolve(.cycle(down: false), in: turned), .success(.integer(0)))
        XCTAssertEqual(try property("mute").resolve(.cycle(down: false), in: status), .success(.flag(true)))
        XCTAssertEqual(try property("loop-file").resolve(.cycle(down: false), in: status), .success(.off))
        let aid = try property("aid")
        XCTAssertEqual(aid.resolve(.cycle(down: false), in: status), .success(.integer(1)))
        var last = status
        last.audioTrack = 1
        XCTAssertEqual(aid.resolve(.cycle(down: false), in: last), .success(.off), "after the last: none")
        last.audioTrack = nil
        XCTAssertEqual(aid.resolve(.cycle(down: false), in: last), .success(.integer(0)), "then the first")
        XCTAssertEqual(aid.resolve(.cycle(down: true), in: status), .success(.off))
        XCTAssertEqual(volume.resolve(.cycle(down: false), in: status), .failure(.format), "a number does not cycle")
    }

    func testCommandsClampAndTextIsReadInMPVsUnits() throws {
        let volume = try property("volume")
        XCTAssertEqual(volume.clamping(.set(.number(3))), .set(.number(1)))
        XCTAssertEqual(try property("loop-file").clamping(.set(.integer(20_000))), .set(.integer(10_000)))
        XCTAssertEqual(volume.value(mpvText: "40"), .success(.number(0.4)), "percent")
        XCTAssertEqual(volume.value(mpvText: "101"), .failure(.range))
        XCTAssertEqual(volume.value(mpvText: "loud"), .failure(.format))
        XCTAssertEqual(try property("video-rotate").value(mpvText: "270"), .success(.integer(270)))
        XCTAssertEqual(try property("video-rotate").value(mpvText: "45"), .failure(.range))
        XCTAssertEqual(try property("speed").value(mpvText: "16"), .success(.number(16)))
        XCTAssertEqual(try property("speed").value(mpvText: "inf"), .failure(.format))
    }
}
