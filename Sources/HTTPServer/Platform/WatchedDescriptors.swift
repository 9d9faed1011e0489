/// Which descriptors a poller watches, indexed by fd. kqueue's `EV_ADD` registers a descriptor
/// whether or not it is already watched, so `KqueuePoller` keeps this set to refuse `add` of a
/// watched fd (EEXIST) and `modify` of an unwatched one (ENOENT), as epoll and poll(2) do.
struct WatchedDescriptors {
    private var watched: [Bool] = []

    func contains(_ fd: Int32) -> Bool {
        fd >= 0 && Int(fd) < watched.count && watched[Int(fd)]
    }

    /// Marks `fd` watched; false when it already was (or is negative).
    mutating func insert(_ fd: Int32) -> Bool {
        guard fd >= 0, !contains(fd) else { return false }
        let i = Int(fd)
        // Grows by doubling, like PollPoller's slot table: descriptors are small, dense integers.
        if i >= watched.count { watched.append(contentsOf: repeatElement(false, count: max(i + 1 - watched.count, watched.count))) }
        watched[i] = true
        return true
    }

    /// Marks `fd` unwatched; false when it was not watched.
    mutating func remove(_ fd: Int32) -> Bool {
        guard contains(fd) else { return false }
        watched[Int(fd)] = false
        return true
    }
}
