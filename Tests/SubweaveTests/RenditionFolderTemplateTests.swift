import Testing
import Timebase

@testable import Subweave

/// The rendition folder template: what it makes, what it recognises, what it refuses.
struct RenditionFolderTemplateTests {
    @Test func theDefaultMakesWhatSubweaveHasAlwaysWritten() throws {
        let identity = RenditionIdentity.external(sourceID: "a b", language: try #require(LanguageTag(parsing: "pt-BR")))
        #expect(RenditionLayout.folder(for: identity) == "subtitles/a_b-pt-BR")
        #expect(RenditionLayout.folder(for: identity, template: .standard) == "subtitles/a_b-pt-BR")
        let template = try #require(RenditionFolderTemplate("text/{language}/{id}"))
        #expect(RenditionLayout.folder(for: identity, template: template) == "text/pt-BR/a_b")
        // In-band captions keep their folders whatever the template.
        #expect(RenditionLayout.folder(for: .inBand(.cc1), template: template) == "captions/cc1")
    }

    @Test func aTemplatesFoldersAreRecognisedWithTheirGenerationAndNothingElseIs() throws {
        let template = try #require(RenditionFolderTemplate("text/{language}/{id}"))
        let place = RenditionLayout.recognise("text/en/main/0123456789ab/index.m3u8", templates: [template])
        #expect(place?.folder == "text/en/main" && place?.generation == "0123456789ab")
        // Without the template, or not its shape, or no generation: another tool's.
        #expect(RenditionLayout.recognise("text/en/main/0123456789ab/index.m3u8") == nil)
        #expect(RenditionLayout.recognise("text/en/0123456789ab/index.m3u8", templates: [template]) == nil)
        #expect(RenditionLayout.recognise("text/en/main/index.m3u8", templates: [template]) == nil)
        #expect(RenditionLayout.recognise("text/en/main/0123456789ab/other.m3u8", templates: [template]) == nil)
        #expect(RenditionLayout.recognise("text/en/ma in/0123456789ab/index.m3u8", templates: [template]) == nil)
        #expect(RenditionLayout.recognise("https://cdn/text/en/main/0123456789ab/index.m3u8", templates: [template]) == nil)
        // The default layout is recognised as before, with or without templates.
        #expect(RenditionLayout.recognise("subtitles/en-en/0123456789ab/index.m3u8", templates: [template])?.folder == "subtitles/en-en")
        #expect(RenditionLayout.recognise("subtitles/en-en/index.m3u8")?.generation == nil)
    }

    @Test func placeholdersMatchOneOrMoreFolderCharactersBesideLiterals() throws {
        let template = try #require(RenditionFolderTemplate("t/{id}-{language}.x"))
        #expect(template.matches("t/a-b-en.x"))
        #expect(template.matches("t/a-en-GB.x"))
        #expect(!template.matches("t/-en.x"))
        #expect(!template.matches("t/a-en.y"))
        #expect(!template.matches("t/a-en.x/z"))
        // Many placeholders against a long name that fails only at its end: each (position,
        // piece) is tried once, so this returns at once rather than trying every split.
        let many = try #require(RenditionFolderTemplate(String(repeating: "{id}", count: 40) + "z"))
        #expect(!many.matches(String(repeating: "a", count: 250) + "y"))
    }

    @Test func existingFoldersAreFoundOneComponentAtATime() throws {
        let template = try #require(RenditionFolderTemplate("text/{language}"))
        let tree: [String: [String]] = ["": ["text", "video", ".hidden"], "text": ["en", "fr", ".subweave-x", "a b"]]
        #expect(template.folders { tree[$0] ?? [] } == ["text/en", "text/fr"])
    }

    @Test func templatesThatCannotNameFoldersSayWhy() {
        for (text, says) in [
            ("", "empty"), ("a/", "empty"), ("/a", "relative"), ("captions/{id}", "captions"), ("a/.b", "dot"), ("a/..", "dot"),
            ("a/0123456789ab", "generation"), ("a\\b", "U+005C"), ("a/é", "U+00E9"), (String(repeating: "a/", count: 8) + "a", "8 components"),
        ] {
            let problem = RenditionFolderTemplate.problem(text)
            #expect(problem?.contains(says) == true, "\(text): \(problem ?? "accepted")")
            #expect(RenditionFolderTemplate(text) == nil)
        }
        for text in ["subtitles/{id}-{language}", "{language}", "a/0123456789ab{id}", "text/all"] {
            #expect(RenditionFolderTemplate.problem(text) == nil, "\(text)")
        }
    }
}
