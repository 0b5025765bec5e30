import HLS
import Timebase

/// A subtitle rendition to declare in the master.
package struct NewSubtitleRendition: Sendable, Equatable {
    /// How Subweave recognises the rendition on a later run (its URI is derived from it too).
    package let identity: String
    package let name: String
    package let language: LanguageTag
    package let forced: Bool
    /// Its `CHARACTERISTICS` (the SDH pair, machine-generated, translation, …).
    package let characteristics: MediaCharacteristics
    /// The descriptor said `default` (advisory).
    package let prefersDefault: Bool
    /// The media playlist URI, relative to the master.
    package let uri: String
    /// Where the rendition came from, for messages (a descriptor's origin, `CC1`).
    package let origin: String
    /// The master line (index) this rendition takes the place of, when it replaces a rendition
    /// that is not in Subweave's layout (another tool's, retimed); nil to match by folder.
    package var replacesLine: Int?

    package init(
        identity: String, name: String, language: LanguageTag, forced: Bool, characteristics: MediaCharacteristics, prefersDefault: Bool, uri: String,
        origin: String
    ) {
        self.identity = identity
        self.name = name
        self.language = language
        self.forced = forced
        self.characteristics = characteristics
        self.prefersDefault = prefersDefault
        self.uri = uri
        self.origin = origin
    }

    /// The rendition's folder (``RenditionLayout``: its URI is `<folder>/<generation>/index.m3u8`,
    /// or the default layout's): an existing rendition in the same folder is this one from an
    /// earlier run, replaced where it stands.
    package var folder: String {
        if let place = RenditionLayout.recognise(uri) { return place.folder }
        let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count > 2 && RenditionLayout.isGeneration(parts[parts.count - 2]) ? parts.dropLast(2).joined(separator: "/") : uri
    }

    /// Its `EXT-X-MEDIA` attributes in group `group`, in RFC 8216bis §4.4.6.1 order.
    func attributes(group: String, isDefault: Bool, autoselect: Bool) -> AttributeList {
        var list = AttributeList()
        let order = AttributeOrder.media
        list.set("TYPE", .enumerated(MediaType.subtitles.rawValue), order: order)
        list.set("URI", .quoted(uri), order: order)
        list.set("GROUP-ID", .quoted(group), order: order)
        list.set("LANGUAGE", .quoted(language.description), order: order)
        list.set("NAME", .quoted(name), order: order)
        list.set("DEFAULT", YesNo(isDefault).value, order: order)
        list.set("AUTOSELECT", YesNo(autoselect).value, order: order)
        list.set("FORCED", YesNo(forced).value, order: order)
        if let value = characteristics.attributeValue { list.set("CHARACTERISTICS", .quoted(value), order: order) }
        return list
    }
}

/// A CEA-608 service found in the video, to declare as a CLOSED-CAPTIONS rendition.
package struct CaptionServiceDeclaration: Sendable, Equatable {
    /// `CC1` … `CC4`.
    package let instreamID: String
    package let name: String
    package let language: LanguageTag?

    package init(instreamID: String, name: String, language: LanguageTag?) {
        self.instreamID = instreamID
        self.name = name
        self.language = language
    }

    /// Its `EXT-X-MEDIA` attributes in group `group`, in the order Subweave has always written them.
    func attributes(group: String) -> AttributeList {
        var list = AttributeList()
        list.set("TYPE", .enumerated(MediaType.closedCaptions.rawValue), order: [])
        list.set("GROUP-ID", .quoted(group), order: [])
        list.set("NAME", .quoted(name), order: [])
        // Apple HLS Authoring Spec 4.4: every rendition has a LANGUAGE ("und" when nobody says).
        list.set("LANGUAGE", .quoted((language ?? .undetermined).description), order: [])
        list.set("DEFAULT", YesNo.no.value, order: [])
        list.set("AUTOSELECT", YesNo.no.value, order: [])
        list.set("INSTREAM-ID", .quoted(instreamID), order: [])
        return list
    }
}

/// What the master rewrite does about `CLOSED-CAPTIONS`: the request, resolved against what the
/// video carries.
package enum ClosedCaptionsPolicy: Sendable, Equatable {
    /// As ``ClosedCaptionsRequest/automatic``.
    case automatic
    /// As ``ClosedCaptionsRequest/none``.
    case none
    /// Declare these services in group `cc` (or `cc2`… if taken); with none, `NONE` everywhere.
    case declare([CaptionServiceDeclaration])
    /// Give every variant back the CLOSED-CAPTIONS it had before Subweave first wrote the master
    /// (one value each, nil for none): Subweave takes out everything it added.
    case restore([String?])
}
