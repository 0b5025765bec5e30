import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element of a TTML document's body (or a `set` in it), with its attributes by local name
/// (`tts:color` → `color`, `xml:id` → `id`) and its children in order.
final class TTMLNode {
    enum Child {
        case element(TTMLNode)
        case text(String)
    }

    let name: String
    let attributes: [String: String]
    let line: Int
    var children: [Child] = []

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The child elements.
    var elements: [TTMLNode] {
        children.compactMap {
            if case .element(let node) = $0 { return node }
            return nil
        }
    }

    /// Whether every child is text (an anonymous span's content): TTML2 §12.4 gives such an
    /// element an indefinite implicit duration in a parallel container, zero in a sequential one.
    var hasOnlyText: Bool {
        !children.isEmpty
            && children.allSatisfy {
                if case .text = $0 { return true }
                return false
            }
    }
}

/// Reads a TTML document with Foundation's XML parser into its parts: the root's parameters,
/// the styles and regions of its head, and the tree of its body.
final class TTMLTreeBuilder: NSObject, XMLParserDelegate {
    /// The elements of a body that take part in timing and presentation; others are skipped with
    /// what they hold.
    static let bodyElements: Set<String> = ["body", "div", "p", "span", "br", "set"]
    /// The deepest nesting of body elements read (libxml2's own default limit is 256).
    static let deepest = 200

    var failure: SubtitleFileError?
    var sawRoot = false
    var language: String?
    var timing = TTMLTiming()
    var rootExtent: (Double, Double)?
    var styles: [String: (attributes: [String: String], refs: [String])] = [:]
    var regions: [String: [String: String]] = [:]
    var body: TTMLNode?
    /// The TTML namespace as the root gives it; only elements in it are TTML.
    private var rootNamespace: String?
    private var stack: [TTMLNode] = []
    private var inHead = false
    private var ignoredDepth = 0
    /// Every open element's name, to catch what a lenient XML parser lets through.
    private var openNames: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        openNames.append(qName ?? elementName)
        let attributes = Self.localNames(attributeDict)
        if !sawRoot {
            root(elementName, namespaceURI, qName, attributes, parser)
            return
        }
        // Elements of another namespace (a vendor's metadata, `x:p`) are never presented (TTML2
        // §5.2: foreign elements are pruned), nor is what they hold.
        if ignoredDepth > 0 || elementName == "metadata" || namespaceURI != rootNamespace {
            ignoredDepth += 1
            return
        }
        if elementName == "image" || attributes["backgroundImage"] != nil {
            fail(parser, "the document has images (<image> or smpte:backgroundImage): the image profile is not text; Subweave reads text profiles only")
            return
        }
        if inHead {
            switch elementName {
            case "style": if let id = attributes["id"] { styles[id] = (attributes, (attributes["style"] ?? "").split(separator: " ").map(String.init)) }
            case "region": if let id = attributes["id"] { regions[id] = attributes }
            default: break
            }
            return
        }
        switch elementName {
        case "head":
            inHead = true
        case _ where Self.bodyElements.contains(elementName) && (elementName == "body" || !stack.isEmpty):
            guard stack.count < Self.deepest else {
                fail(parser, "elements are nested more than \(Self.deepest) deep; a subtitle document needs a few levels")
                return
            }
            let node = TTMLNode(name: elementName, attributes: attributes, line: parser.lineNumber)
            if let parent = stack.last { parent.children.append(.element(node)) } else { body = node }
            stack.append(node)
        default:
            ignoredDepth += 1
        }
    }

    private func root(_ elementName: String, _ namespaceURI: String?, _ qName: String?, _ attributes: [String: String], _ parser: XMLParser) {
        guard elementName == "tt", namespaceURI?.hasPrefix("http://www.w3.org/ns/ttml") == true else {
            fail(parser, "the root element is <\(qName ?? elementName)>, not <tt> in the TTML namespace (http://www.w3.org/ns/ttml)")
            return
        }
        sawRoot = true
        rootNamespace = namespaceURI
        language = attributes["lang"]
        do throws(SubtitleFileError) { timing = try TTMLTiming(attributes, line: parser.lineNumber) } catch { failure = error; parser.abortParsing() }
        rootExtent = attributes["extent"].flatMap(Self.pixels)
        if let profile = attributes["contentProfiles"] ?? attributes["profile"], profile.contains("image") {
            fail(parser, "the document uses an image profile (\(profile)); Subweave reads text profiles only")
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil else { return }
        let name = qName ?? elementName
        guard openNames.last == name else {
            fail(parser, "not well-formed XML: </\(name)> does not close <\(openNames.last ?? "nothing")>")
            return
        }
        openNames.removeLast()
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        if elementName == "head" {
            inHead = false
        } else if !inHead, Self.bodyElements.contains(elementName), !stack.isEmpty {
            stack.removeLast()
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, ignoredDepth == 0, !inHead, let top = stack.last else { return }
        if case .text(let previous) = top.children.last {
            top.children[top.children.count - 1] = .text(previous + string)
        } else {
            top.children.append(.text(string))
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if failure == nil, let open = openNames.last { fail(parser, "not well-formed XML: <\(open)> is never closed") }
    }

    func fail(_ parser: XMLParser, _ reason: String) {
        failure = SubtitleFileError(.ttml, line: parser.lineNumber, reason)
        parser.abortParsing()
    }

    /// Attribute names without their namespace prefix (`tts:color` → `color`, `xml:id` → `id`).
    static func localNames(_ attributes: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in attributes {
            let local = key.split(separator: ":").last.map(String.init) ?? key
            result[local] = value
        }
        return result
    }

    /// `"1920px 1080px"`.
    static func pixels(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: " ").filter { !$0.isEmpty }
        guard parts.count == 2, parts.allSatisfy({ $0.hasSuffix("px") }),
            let w = Double(parts[0].dropLast(2)), let h = Double(parts[1].dropLast(2)), w > 0, h > 0
        else { return nil }
        return (w, h)
    }
}
