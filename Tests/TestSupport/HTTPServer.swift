import Foundation

// `Data(contentsOf:)` of an http URL, for the server's statistics (the tool itself reads URLs
// through libcurl, loaded on demand).
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The misbehaving local HTTP server (http_test_server.py) on 127.0.0.1, serving a folder.
public final class TestHTTPServer: @unchecked Sendable {
    public let port: Int
    public let root: String
    private let process: Process

    /// Starts the server on `root`; nil when python3 is missing.
    public init?(root: String) throws {
        guard let python = Tools.which("python3") else { return nil }
        let script = Fixtures.repository.appendingPathComponent("Tests/TestSupport/http_test_server.py").path
        let portFile = try Scratch.make().appendingPathComponent("port").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, root, portFile]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var port: Int?
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let p = Int(text) { port = p; break }
            usleep(50_000)
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw MissingTool(name: "the test HTTP server (no port after 5 s)")
        }
        self.port = port
        self.root = root
        self.process = process
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The server's counters: the most requests in flight at once, and the total.
    public func stats() throws -> (maxInFlight: Int, requests: Int) {
        let data = try Data(contentsOf: URL(string: url("stats"))!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Int] ?? [:]
        return (object["max_in_flight"] ?? -1, object["requests"] ?? -1)
    }

    /// Every `/files/` request so far, with the status it got, in order.
    public func requests() throws -> [(path: String, status: Int)] {
        let data = try Data(contentsOf: URL(string: url("requests"))!)
        let rows = try JSONSerialization.jsonObject(with: data) as? [[Any]] ?? []
        return rows.compactMap { row in
            guard row.count == 2, let path = row[0] as? String, let status = row[1] as? Int else { return nil }
            return (path, status)
        }
    }

    deinit {
        // SIGKILL: a child of a test process may inherit a mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
