// swift-tools-version:6.0
// libFuzzer targets for LoopPlayer's parsers of untrusted input. Not part of the main build: run
// them with scripts/fuzz.sh TARGET SECONDS (built here with -sanitize=fuzzer,address). Each target's
// main runs libFuzzer's driver with its callback.
import PackageDescription

let loopPlayer = Target.Dependency.product(name: "LoopPlayer", package: "LoopPlayer")

let package = Package(
    name: "LoopPlayerFuzz",
    dependencies: [
        .package(name: "LoopPlayer", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzHLSPlaylist", dependencies: ["FuzzDriver", loopPlayer]),
        .executableTarget(name: "FuzzM3UPlaylist", dependencies: ["FuzzDriver", loopPlayer]),
        .executableTarget(name: "FuzzSubtitleFile", dependencies: ["FuzzDriver", loopPlayer, .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "FuzzParsers", dependencies: ["FuzzDriver", loopPlayer, .product(name: "Filters", package: "LoopPlayer")]),
    ],
    swiftLanguageModes: [.v6]
)
