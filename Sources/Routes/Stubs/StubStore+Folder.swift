extension StubStore {
    /// The folder's mappings, with each failed file's earlier mappings put back (a `--watch`
    /// reload or a reset after a bad edit: the file keeps what it held, and the report says why).
    /// A mapping whose id the folder now gives elsewhere is not put back.
    func keepingPrevious(_ folder: StubFiles.Folder) -> StubFiles.Folder {
        guard !folder.failedFiles.isEmpty else { return folder }
        let loaded = Set(folder.mappings.map(\.id))
        let previous = state.withLock { $0.entries }.filter { entry in
            guard entry.fromFiles, let file = entry.file else { return false }
            return folder.failedFiles.contains(file.path) && !loaded.contains(entry.mapping.id)
        }
        var kept = folder
        for entry in previous.sorted(by: { $0.sequence < $1.sequence }) {
            kept.mappings.append(entry.mapping)
            kept.origins[entry.mapping.id] = entry.file
        }
        return kept
    }

    /// The `--mappings` folder read as this store reads it (`--global-response-templating`
    /// included), with the mappings a failed file held put back; an empty folder without one.
    func readFolder() throws(StubFiles.LoadError) -> StubFiles.Folder {
        guard let files else { return StubFiles.Folder() }
        return keepingPrevious(try files.loadFolder(templateAll: templateAll))
    }
}
