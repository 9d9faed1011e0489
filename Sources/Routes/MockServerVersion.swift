/// The mock's version: `--version`, the banner, `/__mock/health` consumers. One constant.
public enum MockServerVersion {
    public static let current = "0.3.0"
}
