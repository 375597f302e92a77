/// The version `folio --version` prints.
///
/// `print(FolioVersion.current)   // "0.1.0"`
public enum FolioVersion {
    /// The package's version.
    public static let current = "0.1.0"
}
