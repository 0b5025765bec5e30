import Timebase

/// One rule: its identifier and its check.
struct MasterRule: Sendable {
    let id: String
    let body: @Sendable (MasterContext, inout FindingSink) -> Void

    init(_ id: String, _ body: @escaping @Sendable (MasterContext, inout FindingSink) -> Void) {
        self.id = id
        self.body = body
    }

    func check(_ context: MasterContext, _ sink: inout FindingSink) {
        body(context, &sink)
    }
}

/// What the rules read: the master's views and its groups, in order of first appearance.
struct MasterContext {
    struct Group {
        let type: MediaType
        let id: String
        var members: [MasterPlaylist.Rendition]
    }

    let master: MasterPlaylist
    /// The caption service the video was seen to carry, when it was looked at.
    var captionsFound: String?
    let renditions: [MasterPlaylist.Rendition]
    let variants: [MasterPlaylist.Variant]
    let groups: [Group]
    /// Where each group is in `groups`, by type and GROUP-ID: a lookup per variant must not scan
    /// the groups (a hostile master may have as many groups as variants).
    private let groupIndex: [String: Int]

    init(_ master: MasterPlaylist) {
        self.master = master
        renditions = master.renditions
        variants = master.variants
        var groups: [Group] = []
        var index: [String: Int] = [:]
        for r in renditions {
            guard let type = r.type, let id = r.groupID else { continue }
            let key = Self.key(type, id)
            if let at = index[key] {
                groups[at].members.append(r)
            } else {
                index[key] = groups.count
                groups.append(Group(type: type, id: id, members: [r]))
            }
        }
        self.groups = groups
        self.groupIndex = index
    }

    private static func key(_ type: MediaType, _ id: String) -> String { "\(type.rawValue)\u{0}\(id)" }

    func line(_ index: Int) -> Int? { master.playlist.number(ofLine: index) }
    func name(_ r: MasterPlaylist.Rendition) -> String { LabelText.excerpt(r.name ?? "") }
    func group(_ type: MediaType, _ id: String) -> Group? { groupIndex[Self.key(type, id)].map { groups[$0] } }
}

/// NAME uniqueness within a group (RFC 8216bis §4.4.6.1: "NAME … MUST be unique within the
/// group"): the one place it is decided, for the validator and for the packager.
package enum RenditionNames {
    /// The first name used twice in `names`: the index of its first use and of the repeat.
    package static func firstRepeat(_ names: [String?]) -> (first: Int, repeat: Int)? {
        var seen: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            guard let name else { continue }
            if let first = seen[name] { return (first, index) }
            seen[name] = index
        }
        return nil
    }

    /// Every repeat in `names`, each with the index of the name's first use.
    package static func repeats(_ names: [String?]) -> [(first: Int, repeat: Int)] {
        var seen: [String: Int] = [:]
        var result: [(Int, Int)] = []
        for (index, name) in names.enumerated() {
            guard let name else { continue }
            if let first = seen[name] { result.append((first, index)) } else { seen[name] = index }
        }
        return result
    }
}
