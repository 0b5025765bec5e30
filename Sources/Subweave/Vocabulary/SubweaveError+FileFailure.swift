import Platform

extension SubweaveError {
    /// A file-system failure as the library reports it: its path, and what failed with the errno.
    init(_ failure: FileFailure) { self = .fileSystem(FileProblem(path: failure.path, operation: failure.operation, errno: failure.errno)) }
}

/// Runs file-system work (Platform's), turning its failure into the library's error.
func onDisk<T>(_ work: () throws(FileFailure) -> T) throws(SubweaveError) -> T {
    do { return try work() } catch { throw SubweaveError(error) }
}

/// ``onDisk(_:)`` for one call: `try onDisk(FileSystem.refuseLinks(path, below: root))`.
func onDisk<T>(_ work: @autoclosure () throws(FileFailure) -> T) throws(SubweaveError) -> T {
    do { return try work() } catch { throw SubweaveError(error) }
}

extension ReadFailure {
    /// A file-system failure, said of the file it names.
    init(_ failure: FileFailure) { self.init(explanation: MessageText(failure.explanation)) }
}
