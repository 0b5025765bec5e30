import Foundation
import HLS
import TestSupport
import Testing

extension LifecycleCommandTests {
    /// `remove --language` alone takes out Subweave's renditions in that language, whatever
    /// their source, and never another tool's (that needs --id NAME --force).
    @Test func removeByLanguageAlone() throws {
        let dir = try example()
        try addVendorRendition(dir)
        #expect(try package(dir, ["--subtitle", "url=\(dir)/subs/en.srt,id=de-sdh,language=de,sdh"]).status == 0)
        let removed = try BuiltTool.run(["remove", dir + "/master.m3u8", "--language", "de", "--json", "--retire-after", "0"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let text = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(!text.contains("subtitles/de-sdh-de"), "\(text)")
        #expect(text.contains("NAME=\"Vendor\""), "another tool's German rendition stays")
        #expect(text.contains("LANGUAGE=\"en\"") && text.contains("LANGUAGE=\"fr\""))
        let none = try BuiltTool.run(["remove", dir + "/master.m3u8", "--language", "es"])
        #expect(none.status != 0 && none.stderr.contains("every source in es"), "\(none.stderr)")
    }
}
