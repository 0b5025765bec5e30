import Foundation
import Subweave

/// How the command line spells each setting the library's messages name (``Setting``): every
/// line the command prints goes through ``translate(_:)``, so a message says `--allow-empty`
/// here and `PackageRequest.allowEmpty` to a library caller.
enum Vocabulary {
    static let options: [Setting: String] = [
        .output: "--output FILE", .allowEmpty: "--allow-empty", .preferredLanguage: "--preferred-language",
        .closedCaptionsNone: "--closed-captions none", .closedCaptionsInBand: "--closed-captions in-band", .strict: "--strict",
        .replace: "--replace", .retimeExisting: "--retime-existing", .forceRemoval: "--force", .removals: "subweave remove",
        .playlistLimit: "--limit playlist=SIZE", .subtitleLimit: "--limit subtitle=SIZE", .segmentLimit: "--limit segment=SIZE",
        .follow: "--follow", .captionService: "--caption-service", .captionLanguage: "--caption-language",
        .checkSync: "--check-sync", .fixSync: "--fix-sync",
    ]

    /// `text` with every setting it names written as the command line's option.
    static func translate(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "`")) else { return text }
        var out = removals(in: text)
        for setting in Setting.allCases where out.contains(setting.mention) {
            out = out.replacingOccurrences(of: setting.mention, with: options[setting] ?? setting.rawValue)
        }
        return out
    }

    /// `` `PackageRequest.removals(id: fr, language: de)` `` → `` `subweave remove --id fr --language de` ``.
    private static func removals(in text: String) -> String {
        let opening = "`\(Setting.removals.rawValue)(id: "
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: opening), let end = rest[start.upperBound...].range(of: ")`") {
            let inner = rest[start.upperBound..<end.lowerBound]
            var command = "`subweave remove --id "
            if let comma = inner.range(of: ", language: ", options: .backwards) {
                command += "\(inner[..<comma.lowerBound]) --language \(inner[comma.upperBound...])`"
            } else {
                command += "\(inner)`"
            }
            out += rest[..<start.lowerBound] + command
            rest = rest[end.upperBound...]
        }
        return out + rest
    }
}
