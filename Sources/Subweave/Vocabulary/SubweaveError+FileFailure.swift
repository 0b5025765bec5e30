import Platform

extension SubweaveError {
    /// A file-system failure as the library reports it: its path, and what failed with the errno.
    init(_ failure: FileFailure) { self = .io(path: failure.path, reason: MessageText(failure.explanation)) }
}

/// Runs file-system work (Platform's), turning its failure into the library's error.
func onDisk<T>(_ work: () throws(FileFailure) -> T) throws(SubweaveError) -> T {
    do { return try work() } catch { throw SubweaveError(error) }
}

/// ``onDisk(_:)`` for one call: `try onDisk(FileSystem.refuseLinks(path, below: root))`.
func onDisk<T>(_ work: @autoclosure () throws(FileFailure) -> T) throws(SubweaveError) -> T {
    do { return try work() } catch { throw SubweaveError(error) }
}
