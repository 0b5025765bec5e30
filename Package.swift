// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Subweave",
    products: [
        .library(name: "Subweave", targets: ["Subweave"]),
        .executable(name: "subweave", targets: ["SubweaveCLI"]),
    ],
    targets: [
        // Integer media time (90 kHz), PTS rollover, BCP 47 language tags.
        .target(name: "Timebase"),
        // M3U8 model, lossless parser and writer, media-playlist writer, validation.
        .target(name: "HLS", dependencies: ["Timebase"]),
        // Cue model; WebVTT, SubRip, TTML/IMSC and ASS parsing; WebVTT and SubRip writing;
        // text encodings; the segmenter.
        .target(name: "TimedText", dependencies: ["Timebase"]),
        // MPEG-TS and ISO BMFF reading: packets, PES timestamps, boxes, the presentation timeline.
        .target(name: "Containers", dependencies: ["Timebase"]),
        // H.264/HEVC SEI, A/53 cc_data, the CEA-608 decoder, SCC files.
        .target(name: "Captions", dependencies: ["Timebase", "TimedText", "Containers", "Pictures"]),
        // Bitmap subtitles (VobSub, PGS, DVB subtitles in MPEG-TS) decoded to pictures, and
        // pictures cleaned for OCR.
        .target(name: "Pictures", dependencies: ["Timebase", "Containers"]),
        // Sync checks: speech activity from PCM, the FFT, lining cues up with speech, the rate search.
        .target(name: "Sync", dependencies: ["Timebase"]),
        // HTTP(S) GET through libcurl, loaded with dlopen when a URL is first read.
        .target(name: "CCurl"),
        // The C side of starting a child process (fork, the parent-death signal, exec).
        .target(name: "CPlatform"),
        // What touches the operating system below the library: child processes (ffmpeg), bounded
        // and stopped on every exit path; the file system (atomic writes, no link followed,
        // confinement to a root), failing with FileFailure (path, operation, errno); blocking work
        // off the cooperative pool, and work spread over every core.
        .target(name: "Platform", dependencies: ["CPlatform"]),
        // The public API: track descriptors, rendition rules, orchestration, atomic output, reports.
        .target(name: "Subweave", dependencies: ["Timebase", "HLS", "TimedText", "Containers", "Captions", "Pictures", "Sync", "CCurl", "Platform"]),
        // The `subweave` command: argument parsing, help, exit codes, JSON output.
        .executableTarget(name: "SubweaveCLI", dependencies: ["Subweave", "TimedText", "Timebase"]),
        // Library use, as a caller would write it (README "Use it as a library").
        .executableTarget(name: "subweave-library-example", dependencies: ["Subweave"], path: "Examples/LibraryUse"),

        .target(name: "TestSupport", dependencies: ["Timebase"], path: "Tests/TestSupport", exclude: ["http_test_server.py"]),
        // The fuzz targets: linked into libFuzzer binaries by Scripts/fuzz.sh, replayed by FuzzRegressionTests.
        .target(name: "FuzzTargets", dependencies: ["Timebase", "HLS", "TimedText", "Containers", "Captions", "Pictures", "Sync", "Subweave"], path: "Tests/FuzzTargets"),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "TestSupport"]),
        .testTarget(name: "LibraryAPITests", dependencies: ["Subweave", "TestSupport"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets", "TestSupport", "Captions", "Containers"]),
        .testTarget(name: "TimebaseTests", dependencies: ["Timebase", "TestSupport"]),
        .testTarget(name: "HLSTests", dependencies: ["HLS", "TestSupport"]),
        .testTarget(name: "TimedTextTests", dependencies: ["TimedText", "Timebase", "TestSupport"]),
        .testTarget(name: "ContainersTests", dependencies: ["Containers", "TestSupport"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "TestSupport"]),
        .testTarget(name: "PicturesTests", dependencies: ["Pictures", "Timebase", "TestSupport"]),
        .testTarget(name: "CaptionsTests", dependencies: ["Captions", "Containers", "TimedText", "TestSupport"]),
        .testTarget(name: "SubweaveTests", dependencies: ["Subweave", "HLS", "TimedText", "Containers", "Captions", "Timebase", "Platform", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["SubweaveCLI", "Subweave", "HLS", "Pictures", "TestSupport"]),
        // Runs the built `subweave`, a static server on 127.0.0.1 and hls.js in headless Chromium.
        .testTarget(name: "EndToEndTests", dependencies: ["HLS", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
