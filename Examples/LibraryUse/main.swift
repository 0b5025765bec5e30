// Subweave as a library: side-load one subtitle file into a presentation, then list the
// renditions the master holds. `import Subweave` is all it needs.
//
//   swift run subweave-library-example Examples/basic/master.m3u8 Examples/basic/subs/en.srt en
//   (on a copy: the master is rewritten in place)
import Foundation
import Subweave

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: subweave-library-example <master.m3u8> <subtitles> <language>\n".utf8))
    exit(64)
}
let (masterPath, subtitlePath, languageText) = (arguments[arguments.startIndex], arguments[arguments.startIndex + 1], arguments[arguments.startIndex + 2])

do {
    // 1. A track from typed values (errors say which value is wrong and why).
    let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: subtitlePath)), language: LanguageTag(parsing: languageText))
    // 2. Read the presentation once; plan (reads, never writes); apply (writes, master last).
    let master = URL(fileURLWithPath: masterPath)
    let plan = try await Presentation(master: master).plan(PackageRequest(tracks: [track], preferredLanguage: track.language))
    for warning in plan.report.warnings { print("warning: \(warning.message)") }
    try await Packager().apply(plan)
    print("wrote \(plan.files.count) files; the timeline follows \(plan.report.referencePlaylist)")
    // 3. What the master now holds.
    for rendition in try await RenditionList.read(master: master) {
        print(
            rendition.managed ? rendition.identity ?? "?" : "(another tool's)", rendition.name,
            rendition.cueCount.map { $0 == 1 ? "1 cue" : "\($0) cues" } ?? "")
    }
} catch let error as SubweaveError {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
