import Foundation
import Subweave

/// How the command line spells each setting the library's messages name (``Setting``): a message
/// says `--allow-empty` here and `PackageRequest.allowEmpty` to a library caller.
///
/// Messages keep the settings they name apart from their text (``MessageText``), so only those
/// parts are spelt anew: text that came from a file is printed as it is.
enum Vocabulary {
    static let options: [Setting: String] = [
        .output: "--output FILE", .allowEmpty: "--allow-empty", .preferredLanguage: "--preferred-language",
        .subtitleGroup: "--subtitle-group", .encryptSubtitles: "--encrypt-subtitles", .textFormat: "--text-format", .segmentNames: "--segment-names",
        .renditionFolder: "--rendition-folder",
        .closedCaptionsNone: "--closed-captions none", .closedCaptionsInBand: "--closed-captions in-band", .strict: "--strict",
        .replace: "--replace", .retimeExisting: "--retime-existing", .forceRemoval: "--force", .removals: "subweave remove",
        .playlistLimit: "--limit playlist=SIZE", .subtitleLimit: "--limit subtitle=SIZE", .segmentLimit: "--limit segment=SIZE",
        .follow: "--follow", .captionService: "--caption-service", .captionLanguage: "--caption-language",
        .checkSync: "--check-sync", .fixSync: "--fix-sync",
    ]

    /// The command line's spelling: options for settings, `subweave remove --id fr --language de`
    /// for a removal.
    static let spelling = MessageText.Spelling(
        setting: { options[$0] ?? $0.rawValue },
        removal: { id, language in "`subweave remove --id \(id)\(language.map { " --language \($0)" } ?? "")`" })

    /// `message` spelt for the command line.
    static func render(_ message: MessageText) -> String { message.rendered(spelling) }
}
