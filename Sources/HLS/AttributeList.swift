import Timebase

/// An attribute list (RFC 8216bis §4.2): `NAME=VALUE` pairs in their original order and form.
///
/// Each value keeps its raw text, quotes included, so an unchanged attribute is written back exactly
/// as read. Setting an attribute that exists replaces its value in place; a new attribute is placed
/// by the tag's spec order (see ``set(_:_:order:)``) and never duplicates an existing name.
///
/// ```swift
/// var list = try AttributeList(parsing: #"BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2""#)
/// list["CODECS"]?.unquoted                                    // "avc1.4d401f,mp4a.40.2"
/// list.set("SUBTITLES", .quoted("subs"), order: AttributeOrder.streamInf)
/// ```
public struct AttributeList: Sendable, Equatable {
    /// The attributes in order.
    public private(set) var attributes: [Attribute]

    /// An empty list.
    public init() { attributes = [] }

    /// A list of `attributes` in the given order.
    public init(_ attributes: [Attribute]) { self.attributes = attributes }

    /// Parses `text`.
    ///
    /// Tolerates spaces after commas and around `=` (some packagers write them);
    /// rejects a missing `=`, an unterminated quoted string, text after a closing quote and a
    /// double quote inside an unquoted value, so whatever it accepts is written back as a list
    /// that parses to the same attributes. Linear in the length of `text`.
    public init(parsing text: Substring) throws(AttributeListError) {
        // On the text's own bytes (a Substring of a native string is contiguous): no copy of a
        // line that may be megabytes long.
        let parse = { (bytes: UnsafeBufferPointer<UInt8>) in Result { () throws(AttributeListError) in try Self.attributes(bytes, values: true) } }
        let parsed = text.utf8.withContiguousStorageIfAvailable(parse) ?? Array(text.utf8).withUnsafeBufferPointer(parse)
        attributes = try parsed.get()
    }

    /// Parses the UTF-8 `bytes` of a list as ``init(parsing:)`` does; with `values` false every
    /// value is left empty (for the names alone: a value may be megabytes long).
    package init(parsing bytes: UnsafeBufferPointer<UInt8>, values: Bool) throws(AttributeListError) {
        attributes = try Self.attributes(bytes, values: values)
    }

    private static func attributes(_ bytes: UnsafeBufferPointer<UInt8>, values: Bool) throws(AttributeListError) -> [Attribute] {
        var attributes: [Attribute] = []
        let count = bytes.count
        var i = 0
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        while i < count {
            while i < count, isSpace(bytes[i]) { i += 1 }
            if i == count { break }
            let nameStart = i
            while i < count, bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ",") { i += 1 }
            guard i < count, bytes[i] == UInt8(ascii: "=") else {
                throw AttributeListError(
                    offset: nameStart, reason: "expected NAME=VALUE, found \"\(LabelText.excerpt(string(nameStart..<i), limit: 40))\" without '='")
            }
            var nameEnd = i
            while nameEnd > nameStart, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            let name = string(nameStart..<nameEnd)
            guard !name.isEmpty else { throw AttributeListError(offset: nameStart, reason: "an attribute has an empty name") }
            i += 1
            while i < count, isSpace(bytes[i]) { i += 1 }
            let valueStart = i
            if i < count, bytes[i] == UInt8(ascii: "\"") {
                i += 1
                while i < count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                guard i < count else {
                    throw AttributeListError(offset: valueStart, reason: "the quoted value of \(LabelText.excerpt(name, limit: 40)) has no closing quote")
                }
                i += 1
                let afterQuote = i
                while i < count, isSpace(bytes[i]) { i += 1 }
                guard i == count || bytes[i] == UInt8(ascii: ",") else {
                    throw AttributeListError(offset: afterQuote, reason: "unexpected text after the closing quote of \(LabelText.excerpt(name, limit: 40))")
                }
                attributes.append(Attribute(name: name, rawValue: values ? string(valueStart..<afterQuote) : ""))
            } else {
                while i < count, bytes[i] != UInt8(ascii: ",") {
                    guard bytes[i] != UInt8(ascii: "\"") else {
                        throw AttributeListError(offset: i, reason: "the unquoted value of \(LabelText.excerpt(name, limit: 40)) contains a double quote")
                    }
                    i += 1
                }
                var valueEnd = i
                while valueEnd > valueStart, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
                attributes.append(Attribute(name: name, rawValue: values ? string(valueStart..<valueEnd) : ""))
            }
            if i < count { i += 1 }  // the comma
        }
        return attributes
    }

    /// The first attribute named `name`.
    public subscript(name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// Names that occur more than once (§4.2 forbids it).
    public var duplicateNames: [String] {
        var seen: Set<String> = []
        var duplicates: [String] = []
        for attribute in attributes where !seen.insert(attribute.name).inserted && !duplicates.contains(attribute.name) {
            duplicates.append(attribute.name)
        }
        return duplicates
    }

    /// Sets `name` to `value`.
    ///
    /// An existing attribute keeps its position; a new one goes after the
    /// last present attribute that precedes it in `order`, or, if none does, before the first that
    /// follows it, or else at the end. Names not in `order` keep their places.
    public mutating func set(_ name: String, _ value: AttributeValue, order: [String]) {
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            attributes[index] = Attribute(name: name, rawValue: value.rawValue)
            for later in attributes.indices.reversed() where later > index && attributes[later].name == name {
                attributes.remove(at: later)
            }
            return
        }
        let new = Attribute(name: name, rawValue: value.rawValue)
        guard let rank = order.firstIndex(of: name) else {
            attributes.append(new)
            return
        }
        // The order is short: a search beats hashing it into sets on every call.
        let before = order[..<rank]
        let after = order[(rank + 1)...]
        if let last = attributes.lastIndex(where: { before.contains($0.name) }) {
            attributes.insert(new, at: last + 1)
        } else if let first = attributes.firstIndex(where: { after.contains($0.name) }) {
            attributes.insert(new, at: first)
        } else {
            attributes.append(new)
        }
    }

    /// Removes every attribute named `name`.
    public mutating func remove(_ name: String) {
        attributes.removeAll { $0.name == name }
    }

    /// The list as text: `NAME=VALUE` joined by commas.
    public var text: String {
        attributes.map { "\($0.name)=\($0.rawValue)" }.joined(separator: ",")
    }
}

extension AttributeList {
    /// The list with `edits` applied in order.
    public func applying(_ edits: [AttributeEdit]) -> AttributeList {
        var list = self
        for edit in edits {
            switch edit {
            case .set(let name, let value, let order): list.set(name, value, order: order)
            case .setIfAbsent(let name, let value, let order) where list[name] == nil: list.set(name, value, order: order)
            case .setIfAbsent: break
            case .remove(let name): list.remove(name)
            case .removeUnlessQuoted(let name, let kept):
                if let value = list[name], !(value.isQuoted && kept.contains(value.unquoted)) { list.remove(name) }
            case .removeFromList(let name, let item):
                guard let value = list[name], value.isQuoted else { break }
                let items = value.unquoted.split(separator: ",").map(String.init)
                if items.contains(where: { $0.filter { $0 != " " } == item }) {
                    list.set(name, .quoted(items.filter { $0.filter { $0 != " " } != item }.joined(separator: ",")), order: [])
                }
            case .addToList(let name, let item):
                guard let value = list[name], value.isQuoted else { break }
                let items = value.unquoted.split(separator: ",").map { String($0.filter { $0 != " " }) }
                if !items.contains(item) { list.set(name, .quoted(value.unquoted.isEmpty ? item : value.unquoted + "," + item), order: []) }
            }
        }
        return list
    }
}

/// A change to an attribute list that does not depend on which line it is applied to, so that one
/// edit can stand for the same change on many lines (every variant's `SUBTITLES`).
public enum AttributeEdit: Sendable, Equatable {
    /// Sets `name` to the value (see ``AttributeList/set(_:_:order:)``).
    case set(String, AttributeValue, order: [String])
    /// Sets `name` to the value when the list has no `name`.
    case setIfAbsent(String, AttributeValue, order: [String])
    /// Removes every attribute `name`.
    case remove(String)
    /// Removes `name` unless its value is a quoted-string among `kept`.
    case removeUnlessQuoted(String, kept: Set<String>)
    /// Adds `item` to the comma-separated quoted-string `name` (CODECS) when it is not there; a
    /// list that is absent stays absent (a variant that names no codecs is not given one).
    case addToList(String, item: String)
    /// Takes `item` out of the comma-separated quoted-string `name` (CODECS), when it is there.
    case removeFromList(String, item: String)
}

/// One `NAME=VALUE` pair, with the value's raw text.
public struct Attribute: Sendable, Equatable {
    public let name: String
    /// The value exactly as written, quotes included.
    public let rawValue: String

    /// An attribute with its value exactly as written (quotes included).
    public init(name: String, rawValue: String) {
        self.name = name
        self.rawValue = rawValue
    }

    /// True when the value is a quoted-string.
    public var isQuoted: Bool { rawValue.count >= 2 && rawValue.hasPrefix("\"") && rawValue.hasSuffix("\"") }

    /// The value without surrounding quotes (the raw text if it is not quoted).
    public var unquoted: String { isQuoted ? String(rawValue.dropFirst().dropLast()) : rawValue }
}

/// A value to write into an attribute list, typed as §4.2 types it.
public enum AttributeValue: Sendable, Equatable {
    /// A quoted-string: written in double quotes. Must not contain `"`, CR or LF.
    case quoted(String)
    /// An enumerated-string (`YES`, `NONE`, `SUBTITLES`): written bare.
    case enumerated(String)
    /// A decimal-integer.
    case integer(Int)

    public var rawValue: String {
        switch self {
        case .quoted(let s): return "\"\(s)\""
        case .enumerated(let s): return s
        case .integer(let n): return String(n)
        }
    }
}

/// The spec's attribute order for tags Subweave writes or changes (RFC 8216bis, draft 22).
public enum AttributeOrder {
    /// §4.4.6.1 EXT-X-MEDIA.
    public static let media = [
        "TYPE", "URI", "GROUP-ID", "LANGUAGE", "ASSOC-LANGUAGE", "NAME", "STABLE-RENDITION-ID",
        "DEFAULT", "AUTOSELECT", "FORCED", "INSTREAM-ID", "BIT-DEPTH", "SAMPLE-RATE", "CHARACTERISTICS", "CHANNELS",
    ]
    /// §4.4.6.2 EXT-X-STREAM-INF.
    public static let streamInf = [
        "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS", "RESOLUTION", "FRAME-RATE",
        "HDCP-LEVEL", "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT", "STABLE-VARIANT-ID", "AUDIO", "VIDEO",
        "SUBTITLES", "CLOSED-CAPTIONS", "PATHWAY-ID",
    ]
}

/// An attribute list that does not follow RFC 8216bis §4.2; `offset` counts bytes into the tag value.
public struct AttributeListError: ExplainedError, Equatable {
    public let offset: Int
    public let reason: String
    public var codeName: String { "malformed_attribute_list" }
    public var context: String { "byte \(offset) of the value" }
    public var explanation: String { reason }
    public var description: String { explainedDescription }
}
