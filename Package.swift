// swift-tools-version:6.0
import PackageDescription

let ffmpegPackages = ["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
                      "libswresample-dev", "libavfilter-dev"]

let package = Package(
    name: "LoopPlayer",
    products: [
        .library(name: "LoopPlayer", targets: ["LoopPlayer"]),
        .library(name: "Filters", targets: ["Filters"]),
        .library(name: "LoopPlayerIPC", targets: ["LoopPlayerIPC"]),
        .library(name: "LoopPlayerMetrics", targets: ["LoopPlayerMetrics"]),
        .executable(name: "loopplay", targets: ["loopplay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),  // LogHandler.log(event:)
        // scripts/docs.sh: the DocC catalog in Sources/LoopPlayer, combined with the layers' reference.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The IPC server's sockets (and the metrics endpoint's HTTP).
        .package(url: "https://github.com/apple/swift-nio", from: "2.65.0"),
        // The metrics in Prometheus's format (`loopplay --metrics-address`).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        // Schedule files (`--schedule`): YAML composed into nodes with their lines, read strictly.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample libavfilter",
            providers: [.apt(ffmpegPackages)]),
        // No pkg-config: sdl2.pc adds `-D_REENTRANT`, which SwiftPM refuses (a warning in every
        // package that depends on this one); SDL's headers need no search path beyond /usr/include.
        .systemLibrary(name: "CSDL", providers: [.apt(["libsdl2-dev"])]),
        // Pango, librsvg and gdk-pixbuf come through CGraphicsHeaders, not their pkg-config files
        // (which add `-pthread`; see graphics_headers.c).
        .systemLibrary(
            name: "COverlayGraphics",
            pkgConfig: "cairo gobject-2.0 harfbuzz",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "librsvg2-dev", "fonts-dejavu-core"])]),
        .target(name: "CGraphicsHeaders"),
        // GTK 4, for the example of a video behind a GTK application's widgets (Examples/GTKBackground).
        // (A subset declared, not gtk4.pc: see gtk_subset.h.)
        .systemLibrary(name: "CGtk", providers: [.apt(["libgtk-4-dev"])]),
        // Subtitle rendering; fonts come through fontconfig (DejaVu Sans is the default face).
        .systemLibrary(name: "CLibass", pkgConfig: "libass", providers: [.apt(["libass-dev", "fonts-dejavu-core"])]),
        .target(name: "CLogBridge", dependencies: ["CFFmpeg"]),
        .target(name: "CThreadName"),
        // The commit loopplay --version names (given by scripts/package-deb.sh; empty otherwise).
        .target(name: "CBuildInfo"),
        // Pixel loops C vectorises well and Swift does not (AVX2 chosen at load time where the CPU has it).
        .target(name: "CPixelKernels"),
        .target(name: "FFmpegSupport", dependencies: ["CFFmpeg"]),
        // The layers, each seeing only those below it (docs/architecture.md):
        // LoopPlayerCore ← Filters, Overlay ← LoopPlayerMedia ← LoopPlayerOutput ← LoopPlayer.
        // The pure core: errors, state machines, clocks, geometry, events. No C library.
        .target(name: "LoopPlayerCore", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(name: "Filters", dependencies: ["LoopPlayerCore", "CFFmpeg", "CPixelKernels", "FFmpegSupport"]),
        .target(name: "Overlay", dependencies: ["LoopPlayerCore", "COverlayGraphics", "CGraphicsHeaders", "CPixelKernels"]),
        // Reading and decoding: local files, HLS, subtitles, audio conversion (FFmpeg, libass); schedule files (Yams).
        .target(
            name: "LoopPlayerMedia",
            dependencies: ["LoopPlayerCore", "Filters", "Overlay", "CFFmpeg", "CLogBridge", "CThreadName", "CLibass",
                           "FFmpegSupport", .product(name: "Logging", package: "swift-log"),
                           .product(name: "Yams", package: "Yams")]),
        // Where pictures and sound go: windows, renderers, memory, the sound device (SDL).
        .target(
            name: "LoopPlayerOutput",
            dependencies: ["LoopPlayerCore", "LoopPlayerMedia", "Overlay", "CSDL", "CFFmpeg", "FFmpegSupport"]),
        // The pipelines, the engine and the API users call.
        .target(
            name: "LoopPlayer",
            dependencies: ["LoopPlayerCore", "LoopPlayerMedia", "LoopPlayerOutput", "CFFmpeg",
                           "FFmpegSupport", "Filters", "Overlay"],
            resources: [.copy("Resources/Media")]),
        // mpv's JSON IPC over a Unix socket: a thin layer over the player's commands, status and events.
        .target(
            name: "LoopPlayerIPC",
            dependencies: ["LoopPlayer", .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio")]),
        // Prometheus metrics over HTTP/1: the player's counters and status, for scrapers.
        .target(
            name: "LoopPlayerMetrics",
            dependencies: ["LoopPlayer", "LoopPlayerCore", .product(name: "Prometheus", package: "swift-prometheus"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio")]),
        .executableTarget(
            name: "loopplay",
            dependencies: ["LoopPlayer", "LoopPlayerIPC", "LoopPlayerMetrics", "Filters", "CBuildInfo",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "WindowPlayer", dependencies: ["LoopPlayer"], path: "Examples/WindowPlayer"),
        .executableTarget(name: "EmbedInSDL", dependencies: ["LoopPlayer", "CSDL"], path: "Examples/EmbedInSDL"),
        .executableTarget(name: "AnimatedOverlay", dependencies: ["LoopPlayer"], path: "Examples/AnimatedOverlay"),
        .executableTarget(name: "HeadlessFrames", dependencies: ["LoopPlayer"], path: "Examples/HeadlessFrames"),
        .executableTarget(name: "SeveralWindows", dependencies: ["LoopPlayer"], path: "Examples/SeveralWindows"),
        .executableTarget(name: "GTKBackground", dependencies: ["LoopPlayer", "CGtk"], path: "Examples/GTKBackground"),
        .testTarget(name: "LoopPlayerTests", dependencies: ["LoopPlayer", "LoopPlayerIPC", "LoopPlayerMetrics", "LoopPlayerCore", "LoopPlayerMedia",
                                                         "LoopPlayerOutput", "Filters", "FFmpegSupport", "CFFmpeg", "CSDL",
                                                         .product(name: "Prometheus", package: "swift-prometheus")],
                    exclude: ["Support/fault_server.py", "Support/mpv_client.py"]),
        .testTarget(name: "FiltersTests", dependencies: ["Filters", "LoopPlayerCore", "FFmpegSupport", "CFFmpeg"]),
        .testTarget(name: "OverlayTests", dependencies: ["Overlay", "LoopPlayerCore"]),
    ],
    swiftLanguageModes: [.v6]
)
