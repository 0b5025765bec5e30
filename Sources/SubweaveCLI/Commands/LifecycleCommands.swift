import Foundation
import Subweave

/// `subweave list`.
enum ListCommand {
    /// The renditions, and what the operator has said of the title (nil: no record).
    struct ListJSON: Encodable {
        let renditions: [ListedRendition]
        let intent: TitleIntent?
    }

    static func run(_ context: Context) async throws -> Int32 {
        let master = Commands.url(context.arguments.positionals[0])
        let renditions = try await RenditionList.read(master: master, loader: Commands.loader(context))
        if context.json {
            let intent = master.isFileURL ? try TitleIntent.recorded(for: master, loader: Commands.loader(context)) : nil
            try Output.json(ListJSON(renditions: renditions, intent: intent), schema: "subweave.list/1")
            return 0
        }
        for r in renditions {
            var flags: [String] = []
            if r.isDefault { flags.append("default") }
            if r.autoselect { flags.append("autoselect") }
            if r.forced { flags.append("forced") }
            let characteristics = MediaCharacteristics(attribute: r.characteristics)
            if characteristics.isSDH { flags.append("sdh") }
            for (flag, uti) in [
                ("generated", MediaCharacteristics.machineGenerated), ("translated", MediaCharacteristics.translation),
                ("easy-to-read", MediaCharacteristics.easyToRead),
            ] where characteristics.contains(uti) {
                flags.append(flag)
            }
            let who = r.managed ? (r.identity ?? "?") : "(not created by Subweave)"
            let cues = r.cueCount.map { ", \($0.counted("cue"))" } ?? ""
            Output.out(
                "\(who)  \(r.type) \"\(r.name)\" [\(r.language ?? "no language")] group \"\(r.groupID)\"\(flags.isEmpty ? "" : " " + flags.joined(separator: ","))\(cues)\(r.folder.map { "  \($0)" } ?? "")"
            )
        }
        if renditions.isEmpty { context.note("no subtitle or caption renditions") }
        return 0
    }
}
