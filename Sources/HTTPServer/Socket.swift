/// The old name of the system-call facade, kept while EventLoop.swift still uses it.
typealias Socket = Sys
