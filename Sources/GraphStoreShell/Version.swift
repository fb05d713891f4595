/// The version `graphstore --version` prints.
public enum GraphStoreVersion {
    public static let string = "0.1.0"
}
