/// Who the app is: one id everywhere (GApplication, .desktop, metainfo, icons), the version the CLI, the About
/// dialog and the package report, and where to find the project.
public enum AppInfo {
    public static let id = "io.github.oekaki.Oekaki"
    public static let version = "0.1.0"
    public static let website = "https://github.com/oekaki/oekaki"
}
