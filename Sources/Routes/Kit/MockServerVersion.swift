/// The mock's version: `--version`, the banner, the OpenAPI document's `info.version`,
/// `/__mock/health` consumers. One constant, equal to the newest version in `CHANGELOG.md` (a
/// test keeps them equal). In the kit, so the control plane's OpenAPI document can name it too.
package enum MockServerVersion {
    /// `MAJOR.MINOR.PATCH` (semantic versioning: a breaking change to the libraries, the command
    /// line or the admin API raises the minor version while the major is 0).
    package static let current = "0.4.0"
}
