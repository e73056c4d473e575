import CFFmpeg
import Logging
@testable import LoopPlayerMedia
import XCTest

/// FFmpeg's messages reach a host's logger at levels a host expects: its notes and warnings stay
/// below swift-log's default `info` (every host printed "Input channel layout has a different
/// number of channels…"), its errors at `info`, a fatal one as an error.
final class FFmpegLogLevelTests: XCTestCase {
    func testFFmpegsChatterIsDebugAndItsErrorsAreAbove() {
        XCTAssertEqual(FFmpegLogBridge.level(for: AV_LOG_PANIC), .error)
        XCTAssertEqual(FFmpegLogBridge.level(for: AV_LOG_FATAL), .error)
        XCTAssertEqual(FFmpegLogBridge.level(for: AV_LOG_ERROR), .info)
        XCTAssertEqual(FFmpegLogBridge.level(for: AV_LOG_WARNING), .debug)
        XCTAssertEqual(FFmpegLogBridge.level(for: AV_LOG_INFO), .debug)
        XCTAssertEqual(FFmpegLogBridge.level(for: AV_LOG_VERBOSE), .debug, "loopplay --verbose shows it")
        XCTAssertEqual(FFmpegLogBridge.level(for: AV_LOG_DEBUG), .trace)
        // swift-log's StreamLogHandler prints `info` and above.
        for level in [AV_LOG_WARNING, AV_LOG_INFO, AV_LOG_VERBOSE] {
            XCTAssertLessThan(FFmpegLogBridge.level(for: level), .info, "FFmpeg level \(level) hidden by default")
        }
    }
}
