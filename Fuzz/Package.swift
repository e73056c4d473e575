// swift-tools-version:6.0
// libFuzzer targets for LoopPlayer's parsers of untrusted input. Not part of the main build: run
// them with scripts/fuzz.sh TARGET SECONDS (built here with -sanitize=fuzzer,address).
import PackageDescription

let loopPlayer = Target.Dependency.product(name: "LoopPlayer", package: "LoopPlayer")

let package = Package(
    name: "LoopPlayerFuzz",
    dependencies: [
        .package(name: "LoopPlayer", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),
    ],
    targets: [
        .executableTarget(name: "FuzzHLSPlaylist", dependencies: [loopPlayer]),
        .executableTarget(name: "FuzzM3UPlaylist", dependencies: [loopPlayer]),
        .executableTarget(name: "FuzzSubtitleFile", dependencies: [loopPlayer, .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "FuzzParsers", dependencies: [loopPlayer, .product(name: "Filters", package: "LoopPlayer")]),
    ],
    swiftLanguageModes: [.v6]
)
