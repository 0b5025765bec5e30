import Foundation

extension ContentKey {
    /// The key a run on `master` works with: the file `request` names, else the one the title's
    /// intent record names (so a later `refresh` encrypts as the first run did); nil for none.
    public static func forRun(master: URL, _ request: PackageRequest, loader: ResourceLoader = ResourceLoader()) throws(SubweaveError) -> ContentKey? {
        var said = request.encryptSubtitles
        if said == nil { said = try TitleIntent.read(output: request.output ?? master, master: master, loader: loader)?.encryptSubtitles }
        guard let path = said, path != "none" else { return nil }
        return try ContentKey.read(path: path)
    }
}
